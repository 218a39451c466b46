// The atrium CLI from the checkout, run as a child process against the test's
// front server with a token, as a CI job would (ATRIUM_URL, ATRIUM_TOKEN).
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The time limit of a test that runs the CLI `runs` times. Each run is a Node process of its own
 * that loads the CLI: well under a second alone, several on a busy machine (load 12 on 2 cores),
 * so such a test gets 10 s a run rather than Vitest's 20 s in all.
 */
export const cliTimeout = (runs: number) => 30_000 + runs * 10_000;

/** `atrium(token, ...args)` resolves to the command's standard output; a failing command rejects. */
export function cliAgainst(server: { origin: string }) {
  return async function atrium(token: string, ...args: string[]): Promise<string> {
    const env = { ...process.env, ATRIUM_URL: server.origin, ATRIUM_TOKEN: token, ATRIUM_CONFIG_DIR: await mkdtemp(path.join(tmpdir(), 'atrium-config-')) };
    const { stdout } = await run(process.execPath, ['cli/main.ts', ...args], { env });
    return stdout;
  };
}
