// A small pool of child processes that run space databases' SQL (worker.ts).
// Each child runs one job at a time; a job that passes its deadline has its
// child killed (SIGKILL stops a running SQLite statement within milliseconds,
// where nothing else can) and replaced, so that a runaway query in one space
// never holds up the others for longer than the deadline.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { spacedbKills, spacedbSource } from '../ops/metrics.ts';
import type { Job, Refusal } from './worker.ts';

// Resolved when a process is first started, not when the module loads: the
// web app's bundle imports this module (app pages call the apps domain) but
// never starts a query process, and the bundler cannot evaluate this at load.
const workerFile = () => fileURLToPath(new URL('./worker.ts', import.meta.url));

export class JobKilled extends Error {
  readonly ms: number;
  constructor(ms: number) {
    super(`The query ran longer than ${ms / 1000} s and was stopped.`);
    this.ms = ms;
  }
}

/** A refusal from SQLite or the sandbox, to answer as 400 (or 413). */
export class JobRefused extends Error {
  readonly refusal: Refusal;
  constructor(refusal: Refusal) {
    super(refusal.message);
    this.refusal = refusal;
  }
}

type Pending = { job: Job; deadlineMs: number; resolve: (value: unknown) => void; reject: (error: Error) => void };
type Child = { process: ChildProcess; busy: boolean };

export class Pool {
  private children: Child[] = [];
  private queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  readonly size: number;
  constructor(size: number) {
    this.size = size;
    spacedbSource(() => {
      const busy = this.children.filter((c) => c.busy).length;
      return { busy, idle: this.children.length - busy, queued: this.queue.length };
    });
  }

  run<T>(job: Job, deadlineMs: number): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The query pool is closed.'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ job, deadlineMs, resolve: resolve as (value: unknown) => void, reject });
      this.dispatch();
    });
  }

  private spawn(): Child {
    const child: Child = {
      process: fork(workerFile(), [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: ['--disable-warning=ExperimentalWarning'] }),
      busy: false,
    };
    child.process.unref();
    (child.process.channel as { unref?: () => void } | undefined)?.unref?.();
    child.process.on('exit', () => {
      this.children = this.children.filter((c) => c !== child);
    });
    this.children.push(child);
    return child;
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let child = this.children.find((c) => !c.busy && c.process.connected);
      if (!child && this.children.length < this.size) child = this.spawn();
      if (!child) return;
      this.start(child, this.queue.shift()!);
    }
  }

  private start(child: Child, pending: Pending): void {
    child.busy = true;
    const id = this.nextId++;
    const proc = child.process;
    (proc.channel as { ref?: () => void } | undefined)?.ref?.();
    let settled = false;
    const finish = (error: Error | null, value?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      proc.off('message', onMessage);
      proc.off('exit', onExit);
      (proc.channel as { unref?: () => void } | undefined)?.unref?.();
      child.busy = false;
      if (error) pending.reject(error);
      else pending.resolve(value);
      this.dispatch();
    };
    const onMessage = (message: { id: number; ok?: unknown; error?: Refusal }) => {
      if (message.id !== id) return;
      if (message.error) finish(new JobRefused(message.error));
      else finish(null, message.ok);
    };
    const onExit = () => finish(new Error('The query process stopped unexpectedly.'));
    const timer = setTimeout(() => {
      // The child is gone for good; a fresh one takes its place on demand.
      this.children = this.children.filter((c) => c !== child);
      proc.kill('SIGKILL');
      spacedbKills.inc();
      finish(new JobKilled(pending.deadlineMs));
    }, pending.deadlineMs);
    proc.on('message', onMessage);
    proc.on('exit', onExit);
    proc.send({ id, job: pending.job });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const child of this.children) child.process.kill('SIGKILL');
    this.children = [];
  }
}
