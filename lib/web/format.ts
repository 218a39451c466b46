// Times on pages: milliseconds since the epoch shown in UTC, the same for
// everyone whatever the server's or browser's zone.
export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function formatTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
