// How many SQL queries a piece of work costs: costs that must not grow with
// the size of the data are asserted as counts, not timed.
import { db, onRawQuery } from '@/lib/db/client.ts';

type QueryEvents = { $on(event: 'query', listener: () => void): void };

let counter = 0;
(db as unknown as QueryEvents).$on('query', () => {
  counter++;
});
// The hot statements sent as plain SQL (lib/db/client.ts query()).
onRawQuery(() => {
  counter++;
});

export async function countQueries(work: () => Promise<unknown>): Promise<number> {
  const before = counter;
  await work();
  return counter - before;
}
