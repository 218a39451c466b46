// Runs the real atrium CLI as a child process against the e2e server, with a
// config folder of its own: by its arguments, or as a command line typed into a shell.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
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
    return watch(
      spawn(process.execPath, [path.resolve('cli/main.ts'), ...args], {
        env: { ...process.env, ATRIUM_CONFIG_DIR: this.configDir, ATRIUM_URL: this.server, BROWSER: 'none', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
  }

  run(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
    return this.start(args, env).done;
  }

  /**
   * Starts a command line as printed, in bash in `cwd`, with this checkout's CLI as `atrium` on
   * PATH (as the installed package would be) and no server or token from the environment: only
   * what the commands themselves say and save counts.
   */
  shell(command: string, cwd: string) {
    const bin = mkdtempSync(path.join(tmpdir(), 'atrium-bin-'));
    writeFileSync(path.join(bin, 'atrium'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.resolve('cli/main.ts'))} "$@"\n`);
    chmodSync(path.join(bin, 'atrium'), 0o755);
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}`, ATRIUM_CONFIG_DIR: this.configDir, BROWSER: 'none' };
    delete env.ATRIUM_URL;
    delete env.ATRIUM_TOKEN;
    return watch(spawn('bash', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  }
}

function watch(child: ChildProcess) {
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => {
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
