// The semaphore that lets N restores rebuild at once on a node: random
// sequences of acquire and release (some released twice) checked against its
// invariant, with every step's promise reactions run before the next.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Semaphore } from '@/lib/pool.ts';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Semaphore', () => {
  it('never has more than its size held, serves waiters in arrival order, and ends empty', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.array(fc.oneof(fc.constant('acquire' as const), fc.nat({ max: 20 })), { maxLength: 60 }), async (size, steps) => {
        const semaphore = new Semaphore(size);
        const granted: number[] = [];
        const releases = new Map<number, () => void>();
        let asked = 0;
        for (const step of steps) {
          if (step === 'acquire') {
            const id = asked++;
            void semaphore.acquire().then((release) => {
              granted.push(id);
              releases.set(id, release);
            });
          } else {
            const holders = [...releases.keys()];
            if (holders.length === 0) continue;
            const id = holders[step % holders.length];
            releases.get(id)!();
            // A second release of the same turn gives nothing back.
            if (step % 2 === 0) releases.get(id)!();
            releases.delete(id);
          }
          await settle();
          expect(releases.size).toBeLessThanOrEqual(size);
          expect(semaphore.state.held).toBe(releases.size);
          expect(granted).toEqual([...granted].sort((a, b) => a - b));
          // Nobody waits while a place is free.
          if (semaphore.state.waiting > 0) expect(semaphore.state.held).toBe(size);
        }
        while (releases.size > 0) {
          const [id, release] = releases.entries().next().value!;
          release();
          releases.delete(id);
          await settle();
        }
        expect(granted).toHaveLength(asked);
        expect(semaphore.state).toEqual({ held: 0, waiting: 0 });
      }),
      { numRuns: 300 },
    );
  });
});
