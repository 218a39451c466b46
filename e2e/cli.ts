// Runs the real atrium CLI as a child process against the e2e server, with a
// config folder of its own.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type CliRun = { code: number | null; stdout: string; stderr: string };

export class Cli {
  readonly configDir = mkdtempSync(path.join(tmpdir(), 'atrium-cli-'));
  readonly server: string;

  constructor(server: string) {
    this.server = server;
  }

  /** Starts a command; `waitFor` resolves once its stderr matches. */
  start(args: string[], env: Record<string, string> = {}) {
    const child = spawn(process.execPath, [path.resolve('cli/main.ts'), ...args], {
      env: { ...process.env, ATRIUM_CONFIG_DIR: this.configDir, ATRIUM_URL: this.server, BROWSER: 'none', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      for (const waiter of waiters) {
        const match = stderr.match(waiter.pattern);
        if (match) waiter.resolve(match);
      }
    });
    const done = new Promise<CliRun>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
    return {
      done,
      kill: () => child.kill('SIGKILL'),
      waitFor: (pattern: RegExp) =>
        new Promise<RegExpMatchArray>((resolve, reject) => {
          const match = stderr.match(pattern);
          if (match) return resolve(match);
          waiters.push({ pattern, resolve });
          void done.then((run) => reject(new Error(`the CLI ended before printing ${pattern}: ${JSON.stringify(run)}`)));
        }),
    };
  }

  run(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
    return this.start(args, env).done;
  }
}
