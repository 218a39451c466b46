// What the CLI prints: data as JSON for scripts (--json), tables and short
// sentences for people. Errors go to stderr.

/** Exit codes, documented in `atrium --help`. */
export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

export class CliError extends Error {
  readonly hint: string | undefined;
  readonly exitCode: number;
  /** The command already told the person what went wrong: exit without another message. */
  readonly quiet: boolean;

  constructor(message: string, hint?: string, exitCode: number = EXIT.failure, quiet = false) {
    super(message);
    this.hint = hint;
    this.exitCode = exitCode;
    this.quiet = quiet;
  }
}

export function printJson(data: unknown): void {
  process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
}

export function say(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** A status line for people; on stderr so that stdout stays data. */
export function note(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** `text` as one word of a shell command to copy: as it is when nothing in it is special, else single-quoted. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '-';
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16);
}

export function printTable(rows: Record<string, string>[], columns: string[]): void {
  if (rows.length === 0) return;
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd();
  say(line(columns.map((c) => c.toUpperCase())));
  for (const row of rows) say(line(columns.map((c) => row[c] ?? '')));
}
