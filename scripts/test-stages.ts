// The stages of `npm test` and its closing summary. Every stage runs whose
// prerequisites passed, whatever happened to the others, and the summary
// accounts for each one: passed, failed, or not run and why.

export type Counts = { passed: number; failed: number; skipped: number };

/** What running a stage gave: its exit code, and its test counts when it reports any. */
export type StageRun = { exitCode: number; counts?: Counts };

export type Stage = {
  name: string;
  /** Stages that must have passed for this one to run (the build, for what runs the build). */
  needs?: string[];
  /** Returns a reason instead of running when the stage cannot run on this machine. */
  run(): Promise<StageRun | { notRun: string }>;
};

export type StageResult = { name: string } & ({ outcome: 'passed' | 'failed'; counts?: Counts } | { outcome: 'not run'; reason: string });

export async function runStages(stages: Stage[]): Promise<StageResult[]> {
  const results: StageResult[] = [];
  for (const stage of stages) {
    const missing = (stage.needs ?? []).map((name) => results.find((result) => result.name === name)).find((result) => result?.outcome !== 'passed');
    if (missing) {
      results.push({ name: stage.name, outcome: 'not run', reason: `${missing.name} ${missing.outcome === 'failed' ? 'failed' : 'did not run'}` });
      continue;
    }
    let run: StageRun | { notRun: string };
    try {
      run = await stage.run();
    } catch (error) {
      // A stage that throws (its database could not be made, say) has failed; the others still run.
      console.error(`${stage.name}: ${(error as Error).stack ?? error}`);
      run = { exitCode: 1 };
    }
    if ('notRun' in run) results.push({ name: stage.name, outcome: 'not run', reason: run.notRun });
    else results.push({ name: stage.name, outcome: run.exitCode === 0 && !run.counts?.failed ? 'passed' : 'failed', counts: run.counts });
  }
  return results;
}

const describeCounts = (c: Counts) => `${c.passed} tests passed, ${c.failed} failed, ${c.skipped} skipped`;

/**
 * The lines that close `npm test` and its exit code. The last line is the one CI reads,
 * `tests: N passed, N failed, N skipped`; a stage that failed without a failing test (a build,
 * a crashed run) counts as one failed there, so that the line never reads as green when a
 * stage failed. The lines before it name every stage; none of them has the last line's form.
 */
export function summarize(results: StageResult[]): { lines: string[]; exitCode: number } {
  const totals: Counts = { passed: 0, failed: 0, skipped: 0 };
  const lines = ['', 'npm test, stage by stage:'];
  for (const result of results) {
    if (result.outcome === 'not run') {
      lines.push(`  - ${result.name} not run: ${result.reason}`);
      continue;
    }
    const counts = result.counts;
    if (counts) {
      totals.passed += counts.passed;
      totals.failed += counts.failed;
      totals.skipped += counts.skipped;
    }
    if (result.outcome === 'failed' && !counts?.failed) totals.failed += 1;
    const detail = counts ? ` (${describeCounts(counts)})` : '';
    const noFailedTest = result.outcome === 'failed' && !counts?.failed ? ', counted as 1 failed' : '';
    lines.push(`  - ${result.name} ${result.outcome}${detail}${noFailedTest}`);
  }
  const named = (outcome: StageResult['outcome']) => results.filter((result) => result.outcome === outcome).map((result) => result.name);
  const [passed, failed, notRun] = [named('passed'), named('failed'), named('not run')];
  const list = (names: string[]) => (names.length ? ` (${names.join(', ')})` : '');
  lines.push(`Stages: ${passed.length} of ${results.length} passed; ${failed.length} failed${list(failed)}; ${notRun.length} not run${list(notRun)}.`);
  lines.push(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  return { lines, exitCode: failed.length || notRun.length ? 1 : 0 };
}
