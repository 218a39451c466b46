import pLimit from 'p-limit';

/** Runs `work` on every item, at most `limit` at a time; the first failure stops the rest. */
export async function eachLimit<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const lanes = pLimit({ concurrency: limit, rejectOnClear: true });
  try {
    await lanes.map(items, work);
  } catch (error) {
    lanes.clearQueue();
    throw error;
  }
}

/**
 * At most `size` holders at a time; the others wait in arrival order. Each
 * `acquire` resolves to its release, which may be called more than once.
 */
export class Semaphore {
  private held = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly size: number;
  constructor(size: number) {
    this.size = size;
  }

  async acquire(): Promise<() => void> {
    if (this.held < this.size) this.held += 1;
    // A release hands its place straight to the first waiter, so none can be overtaken.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.held -= 1;
    };
  }

  /** Holders and waiters, for tests and metrics. */
  get state(): { held: number; waiting: number } {
    return { held: this.held, waiting: this.waiting.length };
  }
}
