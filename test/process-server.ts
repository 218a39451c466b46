// The API server as a child process (test/fixtures/api-server.ts): for tests
// that kill it mid-request, run two of it on one database, or need it apart
// from the test's own process. Every child is killed when the file's tests
// end, pass or fail, and SIGKILLed if the test process exits without that.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeEach } from 'vitest';
import { freePort } from '@/lib/db/embedded-postgres.ts';

const root = path.resolve(import.meta.dirname, '..');
const fixture = path.join(root, 'test/fixtures/api-server.ts');
const START_TIMEOUT = 30_000;

const children = new Set<ChildProcess>();
// A worker that dies (or is cut short) runs no afterAll; a child must not outlive it.
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

export type ApiProcess = {
  origin: string;
  pid: number;
  /** What the child printed, for failure messages. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) once the process is gone. */
  exited: Promise<number | null>;
  /** Sends `signal` (SIGKILL by default) and waits until the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** SIGTERM, then SIGKILL if it has not exited within 5 s. */
  stop(): Promise<void>;
};

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** Starts the API server on a free port with DATABASE_URL (this test file's database) and `env`. */
export async function startApiServer(env: Record<string, string | undefined> = {}): Promise<ApiProcess> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [fixture], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: process.env.DATABASE_URL,
      DEV_AUTH: 'true',
      LOG_REQUESTS: 'false',
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);

  const exitCode = new Promise<number | null>((resolve) => (exited(child) ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
  const gone = exitCode.then(() => {});
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (!exited(child)) child.kill(signal);
    await gone;
  };
  const server: ApiProcess = {
    origin,
    pid: child.pid!,
    output: () => output,
    exited: exitCode,
    kill,
    async stop() {
      if (exited(child)) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await gone;
      clearTimeout(timer);
    },
  };

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the API server did not start within ${START_TIMEOUT / 1000} s:\n${output}`)), START_TIMEOUT);
      const check = () => {
        if (!output.includes('listening ')) return;
        clearTimeout(timer);
        resolve();
      };
      child.stdout!.on('data', check);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the API server exited (${signal ?? code}) before listening:\n${output}`));
      });
    });
  } catch (error) {
    await kill();
    throw error;
  }
  return server;
}

/**
 * Starts servers for one test file and stops them all after its tests, pass
 * or fail; a failing test shows what they printed. `start(env)` as startApiServer.
 */
export function useApiServers() {
  const started: ApiProcess[] = [];
  beforeEach(({ onTestFailed }) =>
    onTestFailed(() => {
      for (const server of started) console.error(`--- API server ${server.origin} (pid ${server.pid}) printed:\n${server.output()}`);
    }),
  );
  afterAll(async () => {
    await Promise.all(started.map((server) => server.stop()));
  });
  return {
    async start(env: Record<string, string | undefined> = {}) {
      const server = await startApiServer(env);
      started.push(server);
      return server;
    },
  };
}

export type Answer = { status: number; json: any; text: string; headers: Headers };

/** One API request to `origin` over a real socket; `body` is sent as JSON, `raw` as is. */
export async function request(
  origin: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; raw?: Uint8Array; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set('authorization', `Bearer ${options.token}`);
  let body: string | Uint8Array | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers.set('content-type', 'application/json');
  }
  const response = await fetch(origin + path, { method, headers, body: body as BodyInit | undefined });
  const text = await response.text();
  let json: unknown;
  if (response.headers.get('content-type')?.includes('json') && text) json = JSON.parse(text);
  return { status: response.status, json, text, headers: response.headers };
}

/** A token for `handle` through development sign-in (the user is created on first use). */
export async function devLogin(origin: string, handle: string): Promise<{ token: string; user: { id: string; handle: string } }> {
  const answer = await request(origin, 'POST', '/v1/auth/dev-login', { body: { handle, label: 'cli' } });
  if (answer.status !== 200) throw new Error(`dev-login: ${answer.status} ${answer.text}`);
  return answer.json;
}
