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

/** The pool was closed (the process is stopping) while a job waited for a process. */
export class PoolClosed extends Error {
  constructor() {
    super('The query pool is closed.');
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

type Child = { process: ChildProcess; busy: boolean };

/**
 * Who a job is for, for fairness: one person (or an app) may run at most
 * `size - 1` jobs at once, so another always finds a process; anonymous
 * callers together at most half the processes, one per address.
 */
export type Owner = { key: string; anonymous: boolean };

/** A process held for one caller's jobs: taken before a write opens its transaction, so no database connection waits for a process. */
export type Lease = { run<T>(job: Job, deadlineMs: number): Promise<T>; release(): void };

type Waiter = { owner: Owner; grant: (child: Child) => void; refuse: (error: Error) => void };

export class Pool {
  private children: Child[] = [];
  private waiting: Waiter[] = [];
  private running = new Map<string, number>();
  private anonymousRunning = 0;
  private nextId = 1;
  private closed = false;

  readonly size: number;
  constructor(size: number) {
    this.size = size;
    spacedbSource(() => {
      const busy = this.children.filter((c) => c.busy).length;
      return { busy, idle: this.children.length - busy, queued: this.waiting.length };
    });
  }

  /** Runs one job on a process of its own. */
  async run<T>(job: Job, deadlineMs: number, owner: Owner): Promise<T> {
    const lease = await this.lease(owner);
    try {
      return await lease.run<T>(job, deadlineMs);
    } finally {
      lease.release();
    }
  }

  /** Waits for a process this owner may use now (fairly: see Owner), and holds it until release(). */
  async lease(owner: Owner): Promise<Lease> {
    if (this.closed) throw new PoolClosed();
    let child = await new Promise<Child>((grant, refuse) => {
      this.waiting.push({ owner, grant, refuse });
      this.dispatch();
    });
    let released = false;
    return {
      run: async <T>(job: Job, deadlineMs: number) => {
        // A process killed at a deadline is replaced by a fresh one for the lease's next job.
        if (!child.process.connected) child = this.replace(child);
        return this.exec<T>(child, job, deadlineMs);
      },
      release: () => {
        if (released) return;
        released = true;
        child.busy = false;
        this.running.set(owner.key, (this.running.get(owner.key) ?? 1) - 1);
        if (!this.running.get(owner.key)) this.running.delete(owner.key);
        if (owner.anonymous) this.anonymousRunning -= 1;
        this.dispatch();
      },
    };
  }

  private mayRun(owner: Owner): boolean {
    const mine = this.running.get(owner.key) ?? 0;
    if (owner.anonymous) return mine < 1 && this.anonymousRunning < Math.max(1, Math.floor(this.size / 2));
    return mine < Math.max(1, this.size - 1);
  }

  private replace(dead: Child): Child {
    this.children = this.children.filter((c) => c !== dead);
    const fresh = this.spawn();
    fresh.busy = true;
    return fresh;
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
    for (let i = 0; i < this.waiting.length; ) {
      const waiter = this.waiting[i];
      if (!this.mayRun(waiter.owner)) {
        i++;
        continue;
      }
      let child = this.children.find((c) => !c.busy && c.process.connected);
      if (!child && this.children.length < this.size) child = this.spawn();
      if (!child) return;
      this.waiting.splice(i, 1);
      child.busy = true;
      this.running.set(waiter.owner.key, (this.running.get(waiter.owner.key) ?? 0) + 1);
      if (waiter.owner.anonymous) this.anonymousRunning += 1;
      waiter.grant(child);
    }
  }

  /** Runs a job on a held process; past its deadline the process is killed (SIGKILL stops SQLite at once). */
  private exec<T>(child: Child, job: Job, deadlineMs: number): Promise<T> {
    const id = this.nextId++;
    const proc = child.process;
    (proc.channel as { ref?: () => void } | undefined)?.ref?.();
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const finish = (error: Error | null, value?: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        proc.off('message', onMessage);
        proc.off('exit', onExit);
        (proc.channel as { unref?: () => void } | undefined)?.unref?.();
        if (error) reject(error);
        else resolve(value as T);
      };
      const onMessage = (message: { id: number; ok?: unknown; error?: Refusal }) => {
        if (message.id !== id) return;
        if (message.error) finish(new JobRefused(message.error));
        else finish(null, message.ok);
      };
      const onExit = () => finish(new Error('The query process stopped unexpectedly.'));
      const timer = setTimeout(() => {
        // The process is gone for good; a fresh one takes its place on demand.
        this.children = this.children.filter((c) => c !== child);
        proc.kill('SIGKILL');
        spacedbKills.inc();
        finish(new JobKilled(deadlineMs));
      }, deadlineMs);
      proc.on('message', onMessage);
      proc.on('exit', onExit);
      proc.send({ id, job });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const waiting = this.waiting.splice(0);
    for (const waiter of waiting) waiter.refuse(new PoolClosed());
    for (const child of this.children) child.process.kill('SIGKILL');
    this.children = [];
  }
}
