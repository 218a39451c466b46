// A small pool of child processes that run space databases' SQL (worker.ts).
// Each child runs one job at a time; a job that passes its deadline has its
// child killed (SIGKILL stops a running SQLite statement within milliseconds,
// where nothing else can) and replaced, so that a runaway query in one space
// never holds up the others for longer than the deadline.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { spacedbKills, spacedbQueuedJobs, spacedbWorkers } from '../core/metrics.ts';
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

/** A query process; `ready` settles once it has loaded and listens for jobs. */
type Child = { process: ChildProcess; busy: boolean; ready: Promise<void> };

/**
 * Who a job is for, for fairness: owners take turns (the one with the fewest
 * jobs running first, then the one served longest ago). An owner runs one job
 * per space at a time (reads of different owners share a space; a write's
 * lease has it alone), so their runaway holds one process, and at most
 * `max(2, size - 1)` jobs in all, so that it leaves them a process for their
 * other spaces and, from three processes up, another owner always finds one.
 * Anonymous callers together run at most half the processes, one per address.
 */
export type Owner = { key: string; anonymous: boolean };

/**
 * One owner's turn on one space, held across a write's transaction: it counts
 * for the owner and the space, but takes a process only while a job runs, so
 * no process waits on PostgreSQL. At most `size` leases are held at once, so
 * writes waiting for the space's lock hold a bounded number of connections.
 */
export type Lease = { run<T>(job: Job, deadlineMs: number): Promise<T>; release(): void };

/** A job's (withProcess) or a lease's hold on one owner's share of one space. */
type Turn = { owner: Owner; space: string; withProcess: boolean };
type Waiter = Turn & { grant: (child: Child | null) => void; refuse: (error: Error) => void };
const ownerSpace = (turn: Turn) => `${turn.owner.key}\n${turn.space}`;
type ProcessWaiter = { grant: (child: Child) => void; refuse: (error: Error) => void };

export class Pool {
  private children: Child[] = [];
  private waiting: Waiter[] = [];
  /** Leases' jobs waiting for a process: served first, as each holds its space's lock and a connection. */
  private leaseJobs: ProcessWaiter[] = [];
  private leases = 0;
  private running = new Map<string, number>();
  /** When each owner with work here was last given a turn (round-robin); one arriving joins at the back. */
  private lastServed = new Map<string, number>();
  private turnsGiven = 0;
  /** Turns held per space, the spaces a write's lease holds alone, and each owner's spaces with a turn. */
  private spaceTurns = new Map<string, number>();
  private leasedSpaces = new Set<string>();
  private ownerSpaces = new Set<string>();
  private anonymousRunning = 0;
  private nextId = 1;
  private closed = false;

  readonly size: number;
  constructor(size: number) {
    this.size = size;
    spacedbWorkers(() => {
      const busy = this.busyCount();
      return { busy, idle: this.children.length - busy };
    });
    spacedbQueuedJobs(() => this.waiting.length + this.leaseJobs.length);
  }

  /** Runs one job for `owner` on `space`, on a process of its own. */
  async run<T>(job: Job, deadlineMs: number, owner: Owner, space: string): Promise<T> {
    const child = await this.wait(owner, space, true);
    try {
      return await this.exec<T>(child!, job, deadlineMs);
    } finally {
      this.free(child!);
      this.end({ owner, space, withProcess: true });
    }
  }

  /** Waits for `owner`'s turn on `space` (fairly: see Owner) and holds it until release(). */
  async lease(owner: Owner, space: string): Promise<Lease> {
    await this.wait(owner, space, false);
    let released = false;
    return {
      run: async <T>(job: Job, deadlineMs: number) => {
        const child = await this.process();
        try {
          return await this.exec<T>(child, job, deadlineMs);
        } finally {
          this.free(child);
        }
      },
      release: () => {
        if (released) return;
        released = true;
        this.leases -= 1;
        this.end({ owner, space, withProcess: false });
      },
    };
  }

  private wait(owner: Owner, space: string, withProcess: boolean): Promise<Child | null> {
    if (this.closed) return Promise.reject(new PoolClosed());
    if (!this.lastServed.has(owner.key)) this.lastServed.set(owner.key, this.turnsGiven);
    return new Promise<Child | null>((grant, refuse) => {
      this.waiting.push({ owner, space, withProcess, grant, refuse });
      this.dispatch();
    });
  }

  /** A process for a lease's job: a free one at once, else the next one freed. */
  private process(): Promise<Child> {
    if (this.closed) return Promise.reject(new PoolClosed());
    return new Promise<Child>((grant, refuse) => {
      this.leaseJobs.push({ grant, refuse });
      this.dispatch();
    });
  }

  private free(child: Child): void {
    child.busy = false;
    this.dispatch();
  }

  private end(turn: Turn): void {
    const key = turn.owner.key;
    const left = (this.running.get(key) ?? 1) - 1;
    if (left > 0) this.running.set(key, left);
    else {
      this.running.delete(key);
      if (!this.waiting.some((w) => w.owner.key === key)) this.lastServed.delete(key);
    }
    const inSpace = (this.spaceTurns.get(turn.space) ?? 1) - 1;
    if (inSpace > 0) this.spaceTurns.set(turn.space, inSpace);
    else this.spaceTurns.delete(turn.space);
    if (!turn.withProcess) this.leasedSpaces.delete(turn.space);
    this.ownerSpaces.delete(ownerSpace(turn));
    if (turn.owner.anonymous) this.anonymousRunning -= 1;
    this.dispatch();
  }

  private busyCount(): number {
    return this.children.filter((c) => c.busy).length;
  }

  private processFree(): boolean {
    return this.children.length < this.size || this.children.some((c) => !c.busy && c.process.connected);
  }

  private mayStart(waiter: Waiter, processFree: boolean): boolean {
    if (waiter.withProcess ? !processFree : this.leases >= this.size) return false;
    if (this.leasedSpaces.has(waiter.space) || this.ownerSpaces.has(ownerSpace(waiter))) return false;
    if (!waiter.withProcess && this.spaceTurns.has(waiter.space)) return false;
    const mine = this.running.get(waiter.owner.key) ?? 0;
    if (waiter.owner.anonymous) return mine < 1 && this.anonymousRunning < Math.max(1, Math.floor(this.size / 2));
    return mine < Math.max(2, this.size - 1);
  }

  /** Whose turn is next: fewer jobs running first, then the owner served longest ago, then the earliest job. */
  private before(a: Waiter, b: Waiter): boolean {
    const running = (w: Waiter) => this.running.get(w.owner.key) ?? 0;
    if (running(a) !== running(b)) return running(a) < running(b);
    return (this.lastServed.get(a.owner.key) ?? 0) < (this.lastServed.get(b.owner.key) ?? 0);
  }

  private takeProcess(): Child | null {
    if (!this.processFree()) return null;
    const child = this.children.find((c) => !c.busy && c.process.connected) ?? this.spawn();
    child.busy = true;
    return child;
  }

  private dispatch(): void {
    while (this.leaseJobs.length) {
      const child = this.takeProcess();
      if (!child) return;
      this.leaseJobs.shift()!.grant(child);
    }
    for (;;) {
      const processFree = this.processFree();
      let next: Waiter | null = null;
      for (const waiter of this.waiting) {
        if (this.mayStart(waiter, processFree) && (!next || this.before(waiter, next))) next = waiter;
      }
      if (!next) return;
      this.waiting.splice(this.waiting.indexOf(next), 1);
      const key = next.owner.key;
      this.running.set(key, (this.running.get(key) ?? 0) + 1);
      this.lastServed.set(key, ++this.turnsGiven);
      this.spaceTurns.set(next.space, (this.spaceTurns.get(next.space) ?? 0) + 1);
      if (!next.withProcess) this.leasedSpaces.add(next.space);
      this.ownerSpaces.add(ownerSpace(next));
      if (next.owner.anonymous) this.anonymousRunning += 1;
      if (!next.withProcess) this.leases += 1;
      next.grant(next.withProcess ? this.takeProcess() : null);
    }
  }

  private spawn(): Child {
    const proc = fork(workerFile(), [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: ['--disable-warning=ExperimentalWarning'] });
    const ready = new Promise<void>((resolve, reject) => {
      proc.once('message', () => resolve());
      proc.once('exit', () => reject(this.closed ? new PoolClosed() : new Error('The query process stopped unexpectedly.')));
    });
    ready.catch(() => {});
    const child: Child = { process: proc, busy: false, ready };
    child.process.unref();
    (child.process.channel as { unref?: () => void } | undefined)?.unref?.();
    child.process.on('exit', () => {
      this.children = this.children.filter((c) => c !== child);
    });
    this.children.push(child);
    return child;
  }

  /** Runs a job on a held process; past its deadline the process is killed (SIGKILL stops SQLite at once). */
  private async exec<T>(child: Child, job: Job, deadlineMs: number): Promise<T> {
    // The deadline is the job's own: it starts once a fresh process has loaded.
    await child.ready;
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
      // Closing the pool (the server stopping) kills its processes: that is a 503, not a fault.
      const onExit = () => finish(this.closed ? new PoolClosed() : new Error('The query process stopped unexpectedly.'));
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
    for (const waiter of [...this.waiting.splice(0), ...this.leaseJobs.splice(0)]) waiter.refuse(new PoolClosed());
    for (const child of this.children) child.process.kill('SIGKILL');
    this.children = [];
  }
}
