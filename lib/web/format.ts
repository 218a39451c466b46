// How pages show times: the same text on the server and in the browser until
// the browser swaps in local, relative text (components/ui/time.tsx).
const formatter = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

export function formatTime(ms: number | null): string {
  return ms === null ? '—' : `${formatter.format(new Date(ms))} UTC`;
}

const dayFormatter = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

/** "28 Nov 2026": a day, for times not stored to the minute. */
export function formatDay(ms: number): string {
  return dayFormatter.format(new Date(ms));
}

export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
];

/** "just now", "2 minutes ago", "3 days ago" for times within a week of `now`; null for older ones. */
export function relativeTime(ms: number, now: number, locale?: string): string | null {
  let amount = (ms - now) / 1000;
  if (Math.abs(amount) < 45) return 'just now';
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return null;
}

/** "1 reply", "2 replies", "0 visitors": the count with its noun in the right number. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}
