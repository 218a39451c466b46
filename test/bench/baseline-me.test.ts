// The me benchmark measures Atrium's GET /v1/me against bench/baseline-me.ts and
// refuses to run when the two answer differently; a baseline left behind by a
// change to /v1/me breaks the benchmark, so the two are compared here, without a build.
import { mkdir } from 'node:fs/promises';
import { afterAll, expect, it } from 'vitest';
import { startServer, workDir } from '@/bench/server.ts';
import { signIn } from '../helpers.ts';
import { useFrontServer } from '../server.ts';

const atrium = useFrontServer();
const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

it('the baseline of the me benchmark answers GET /v1/me as Atrium does', async () => {
  await mkdir(workDir, { recursive: true });
  const baseline = await startServer(`baseline-me-test-${process.pid}`, 'bench/baseline-me.ts', (stop) => stops.push(stop), { DATABASE_URL: process.env.DATABASE_URL! });
  const { token } = await signIn('bench-me');
  const headers = { authorization: `Bearer ${token}` };
  const [mine, theirs] = await Promise.all([atrium.origin, baseline].map(async (base) => (await fetch(`${base}/v1/me`, { headers })).json()));
  expect(theirs).toEqual(mine);
});
