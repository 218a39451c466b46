// The per-space reader/writer lock that keeps a cache file from being
// rewritten under an open read: the interleaving that once let a write run
// beside a read, driven step by step, and random interleavings of acquire and
// release checked against the lock's invariant.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyedRwLock } from '@/lib/spacedb/rw-lock.ts';

/** Lets every pending promise reaction run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('the per-space reader/writer lock', () => {
  it('keeps a second write waiting for a read that arrived during the first write', async () => {
    const lock = new KeyedRwLock();
    const events: string[] = [];
    let readsOpen = 0;
    const firstWrite = gate();
    const read = gate();

    const write1 = lock.write('s', async () => {
      events.push('write 1 runs');
      await firstWrite.opened;
    });
    await settle();
    const reading = lock.read('s', async () => {
      readsOpen++;
      events.push('read runs');
      await read.opened;
      readsOpen--;
    });
    await settle();
    expect(events).toEqual(['write 1 runs']);
    firstWrite.open();
    await write1;
    await settle();
    expect(events).toEqual(['write 1 runs', 'read runs']);

    const write2 = lock.write('s', async () => {
      events.push(readsOpen > 0 ? 'write 2 runs beside an open read' : 'write 2 runs');
    });
    await settle();
    expect(events).toEqual(['write 1 runs', 'read runs']);
    read.open();
    await Promise.all([reading, write2]);
    expect(events).toEqual(['write 1 runs', 'read runs', 'write 2 runs']);
    expect(lock.size).toBe(0);
  });

  it('holds its invariant over random interleavings: a writer alone, first come first served, everyone served, nothing left when idle', async () => {
    type Step = { acquire: { key: number; write: boolean } } | { release: number };
    const step = fc.oneof(
      fc.record({ acquire: fc.record({ key: fc.integer({ min: 0, max: 2 }), write: fc.boolean() }) }),
      fc.record({ release: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps: Step[]) => {
        const lock = new KeyedRwLock();
        type Holder = { id: number; key: number; write: boolean; release: () => void };
        const held: Holder[] = [];
        const granted: { id: number; key: number; write: boolean }[] = [];
        const arrivals: { id: number; key: number; write: boolean }[] = [];

        const check = () => {
          for (const key of [0, 1, 2]) {
            const mine = held.filter((h) => h.key === key);
            if (mine.some((h) => h.write)) expect(mine.length, `key ${key}: a writer holds it with others`).toBe(1);
          }
        };
        const acquire = (key: number, write: boolean) => {
          const id = arrivals.length;
          arrivals.push({ id, key, write });
          void lock.acquire(String(key), write).then((release) => {
            held.push({ id, key, write, release });
            granted.push({ id, key, write });
          });
        };
        const releaseAt = (index: number) => {
          const [holder] = held.splice(index % held.length, 1);
          holder.release();
        };

        for (const s of steps) {
          if ('acquire' in s) acquire(s.acquire.key, s.acquire.write);
          else if (held.length > 0) releaseAt(s.release);
          await settle();
          check();
        }
        // Releasing whatever is held serves the rest: at most one round per waiter.
        for (let round = 0; round <= arrivals.length && (held.length > 0 || granted.length < arrivals.length); round++) {
          while (held.length > 0) releaseAt(0);
          await settle();
          check();
        }
        expect(granted.length, 'every waiter was served').toBe(arrivals.length);
        expect(lock.size, 'no entry is left when idle').toBe(0);
        // First come, first served between any two that conflict (one of them a writer).
        const order = new Map(granted.map((g, i) => [g.id, i]));
        for (const a of arrivals) {
          for (const b of arrivals) {
            if (a.id < b.id && a.key === b.key && (a.write || b.write)) expect(order.get(a.id)!, `${a.id} before ${b.id}`).toBeLessThan(order.get(b.id)!);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
