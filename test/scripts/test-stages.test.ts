// `npm test` runs every stage it can and closes with lines that account for each stage; its
// last line is the one CI reads and must never read as green when something failed or did not run.
import { describe, expect, it, vi } from 'vitest';
import { runStages, type Stage, type StageRun, summarize } from '../../scripts/test-stages.ts';

const LAST_LINE = /^tests: (\d+) passed, (\d+) failed, (\d+) skipped$/;
// The form CI looks for; only the last line may have it.
const CI_FORM = /^(\w+: )?\d+ passed, \d+ failed(, \d+ skipped)?$/;

const stage = (name: string, result: StageRun | { notRun: string } | Error, needs?: string[]): Stage => ({
  name,
  needs,
  run: vi.fn(async () => {
    if (result instanceof Error) throw result;
    return result;
  }),
});

describe('npm test stages', () => {
  it('runs every stage after a failed Vitest run, and the last line counts them all', async () => {
    const stages = [
      stage('vitest', { exitCode: 1, counts: { passed: 614, failed: 1, skipped: 2 } }),
      stage('vitest on S3', { exitCode: 0, counts: { passed: 80, failed: 0, skipped: 0 } }),
      stage('build', { exitCode: 0 }),
      stage('cluster', { exitCode: 0, counts: { passed: 6, failed: 0, skipped: 0 } }, ['build']),
      stage('playwright', { exitCode: 0, counts: { passed: 55, failed: 0, skipped: 1 } }, ['build']),
    ];
    const results = await runStages(stages);
    for (const s of stages) expect(s.run).toHaveBeenCalledTimes(1);
    const { lines, exitCode } = summarize(results);
    expect(exitCode).toBe(1);
    expect(lines.at(-1)).toBe('tests: 755 passed, 1 failed, 3 skipped');
    expect(lines).toContain('  - vitest failed (614 tests passed, 1 failed, 2 skipped)');
    expect(lines).toContain('Stages: 4 of 5 passed; 1 failed (vitest); 0 not run.');
  });

  it('does not run what needs a failed build, names why, and exits non-zero', async () => {
    const cluster = stage('cluster', { exitCode: 0 }, ['build']);
    const results = await runStages([
      stage('vitest', { exitCode: 0, counts: { passed: 10, failed: 0, skipped: 0 } }),
      stage('build', { exitCode: 1 }),
      cluster,
      stage('benchmarks', { exitCode: 0 }, ['cluster']),
    ]);
    expect(cluster.run).not.toHaveBeenCalled();
    const { lines, exitCode } = summarize(results);
    expect(exitCode).toBe(1);
    expect(lines).toContain('  - build failed, counted as 1 failed');
    expect(lines).toContain('  - cluster not run: build failed');
    expect(lines).toContain('  - benchmarks not run: cluster did not run');
    expect(lines).toContain('Stages: 1 of 4 passed; 1 failed (build); 2 not run (cluster, benchmarks).');
    // The build's failure shows on the line CI reads, though it has no test of its own.
    expect(lines.at(-1)).toBe('tests: 10 passed, 1 failed, 0 skipped');
  });

  it('exits non-zero when a stage could not run on this machine, though nothing failed', async () => {
    const { lines, exitCode } = summarize(
      await runStages([stage('build', { exitCode: 0 }), stage('playwright', { notRun: 'no Chromium found' }, ['build'])]),
    );
    expect(exitCode).toBe(1);
    expect(lines).toContain('  - playwright not run: no Chromium found');
    expect(lines.at(-1)).toBe('tests: 0 passed, 0 failed, 0 skipped');
  });

  it('counts a stage that throws, or exits non-zero with no failed test, as failed', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const after = stage('after', { exitCode: 0 });
    const results = await runStages([
      stage('throws', new Error('could not create the database')),
      stage('crashed', { exitCode: 1, counts: { passed: 3, failed: 0, skipped: 0 } }),
      after,
    ]);
    errors.mockRestore();
    expect(after.run).toHaveBeenCalled();
    expect(results.map((r) => r.outcome)).toEqual(['failed', 'failed', 'passed']);
    expect(summarize(results).lines.at(-1)).toBe('tests: 3 passed, 2 failed, 0 skipped');
  });

  it('exits 0 only when every stage passed, and only the last line has the form CI reads', async () => {
    const { lines, exitCode } = summarize(
      await runStages([stage('vitest', { exitCode: 0, counts: { passed: 5, failed: 0, skipped: 1 } }), stage('build', { exitCode: 0 })]),
    );
    expect(exitCode).toBe(0);
    expect(lines.at(-1)).toMatch(LAST_LINE);
    expect(lines.slice(0, -1).filter((line) => CI_FORM.test(line))).toEqual([]);
    expect(lines).toContain('Stages: 2 of 2 passed; 0 failed; 0 not run.');
  });
});
