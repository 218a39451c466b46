// A reader/writer lock per key, within one process: any number of readers
// together, or one writer alone. Waiters are served first come, first served,
// so a reader arriving behind a waiting writer waits too and writers are never
// starved by a stream of reads. A key's entry exists only while someone holds
// or waits for it.
type Waiter = { write: boolean; grant: (release: () => void) => void };
type Entry = { readers: number; writer: boolean; queue: Waiter[] };

export class KeyedRwLock {
  private readonly entries = new Map<string, Entry>();

  /** Runs `job` beside the key's other readers, with no writer. */
  read<T>(key: string, job: () => Promise<T>): Promise<T> {
    return this.holding(key, false, job);
  }

  /** Runs `job` alone on the key. */
  write<T>(key: string, job: () => Promise<T>): Promise<T> {
    return this.holding(key, true, job);
  }

  /** Waits for the lock; the answer releases it (once; later calls do nothing). */
  acquire(key: string, write: boolean): Promise<() => void> {
    let entry = this.entries.get(key);
    if (!entry) this.entries.set(key, (entry = { readers: 0, writer: false, queue: [] }));
    const granted = new Promise<() => void>((grant) => entry.queue.push({ write, grant }));
    this.serve(key, entry);
    return granted;
  }

  /** Keys held or waited for (for tests: empty when idle). */
  get size(): number {
    return this.entries.size;
  }

  private async holding<T>(key: string, write: boolean, job: () => Promise<T>): Promise<T> {
    const release = await this.acquire(key, write);
    try {
      return await job();
    } finally {
      release();
    }
  }

  // Grants from the head of the queue while the head is compatible with the holders.
  private serve(key: string, entry: Entry): void {
    while (entry.queue.length > 0) {
      const next = entry.queue[0];
      if (entry.writer || (next.write && entry.readers > 0)) break;
      entry.queue.shift();
      if (next.write) entry.writer = true;
      else entry.readers++;
      next.grant(this.releaser(key, entry, next.write));
    }
    if (!entry.writer && entry.readers === 0 && entry.queue.length === 0) this.entries.delete(key);
  }

  private releaser(key: string, entry: Entry, write: boolean): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (write) entry.writer = false;
      else entry.readers--;
      this.serve(key, entry);
    };
  }
}
