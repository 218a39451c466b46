// The atrium CLI from the checkout, run as a child process against the test's
// front server with a token, as a CI job would (ATRIUM_URL, ATRIUM_TOKEN).
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `atrium(token, ...args)` resolves to the command's standard output; a failing command rejects. */
export function cliAgainst(server: { origin: string }) {
  return async function atrium(token: string, ...args: string[]): Promise<string> {
    const env = { ...process.env, ATRIUM_URL: server.origin, ATRIUM_TOKEN: token, ATRIUM_CONFIG_DIR: await mkdtemp(path.join(tmpdir(), 'atrium-config-')) };
    const { stdout } = await run(process.execPath, ['cli/main.ts', ...args], { env });
    return stdout;
  };
}
