// How pages show times: the same text on the server and in the browser.
const formatter = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

export function formatTime(ms: number | null): string {
  return ms === null ? '—' : `${formatter.format(new Date(ms))} UTC`;
}

export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
