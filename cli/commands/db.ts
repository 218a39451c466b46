// A space's SQL database: queries, tables, dump and replay, reset, restore,
// the write log and guest writes.
import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { spacedbApi } from '../../lib/schemas/spacedb.ts';
import { splitStatements } from '../../lib/spacedb/sql.ts';
import { globalOptions, signedInClient } from '../context.ts';
import { CliError, formatTime, printJson, printTable, say } from '../output.ts';
import { formatBytes } from '../../lib/format.ts';
import { spaceIdFor, withSpaceOption } from '../space-link.ts';

type Cell = string | number | null | { blob: string };
const shown = (v: Cell) => (v === null ? 'NULL' : typeof v === 'object' ? `<blob ${Buffer.from(v.blob, 'base64').length} bytes>` : String(v));

function parseParam(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function query(this: Command, sql: string, options: { write?: boolean; param?: string[] }) {
  const client = await signedInClient(this);
  const result = await client.call(spacedbApi.query, {
    params: { id: await spaceIdFor(this) },
    body: { sql, write: Boolean(options.write), params: (options.param ?? []).map(parseParam) as never },
  });
  if (globalOptions(this).json) return printJson(result);
  if (result.columns.length > 0) {
    printTable(
      result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, shown(row[i] as Cell)]))),
      result.columns,
    );
  }
  say(`${result.rows.length} row(s)${result.truncated ? ' (truncated)' : ''}; ${result.rowsRead} read, ${result.rowsWritten} written.`);
}

async function tables(this: Command) {
  const overview = await (await signedInClient(this)).call(spacedbApi.overview, { params: { id: await spaceIdFor(this) } });
  if (globalOptions(this).json) return printJson(overview);
  if (overview.tables.length === 0) return say('No tables yet. Create one with `atrium db query --write "CREATE TABLE …"`.');
  printTable(
    overview.tables.map((t) => ({ name: t.name, type: t.type, rows: t.rows === null ? '' : String(t.rows), size: formatBytes(t.size), columns: t.columns.map((c) => c.name).join(', ') })),
    ['name', 'type', 'rows', 'size', 'columns'],
  );
  say(`Database size: ${formatBytes(overview.databaseSize)}`);
}

async function exportDump(this: Command, options: { output?: string }) {
  const id = await spaceIdFor(this);
  const response = await (await signedInClient(this)).bytes(spacedbApi.export, { params: { id } });
  const text = await response.text();
  if (options.output) {
    await writeFile(options.output, text);
    if (globalOptions(this).json) return printJson({ file: options.output, bytes: Buffer.byteLength(text) });
    return say(`Wrote ${options.output}.`);
  }
  process.stdout.write(text);
}

/** Statements per request when replaying a dump, so that each stays well under the body cap. */
const BATCH_CHARS = 4 * 1024 * 1024;

async function importDump(this: Command, file: string) {
  const text = await readFile(file, 'utf8').catch(() => {
    throw new CliError(`Cannot read ${file}.`);
  });
  // sqlite3's .dump wraps itself in a transaction; each request is one already.
  const statements = splitStatements(text).filter((s) => !['BEGIN', 'COMMIT', 'END'].includes(s.keyword));
  const client = await signedInClient(this);
  const id = await spaceIdFor(this);
  let written = 0;
  for (let i = 0; i < statements.length; ) {
    let batch = '';
    while (i < statements.length && (batch === '' || batch.length + statements[i].sql.length < BATCH_CHARS)) batch += `${statements[i++].sql};\n`;
    written += (await client.call(spacedbApi.query, { params: { id }, body: { sql: batch, write: true, params: [] } })).rowsWritten;
  }
  if (globalOptions(this).json) return printJson({ statements: statements.length, rowsWritten: written });
  say(`Ran ${statements.length} statement(s); ${written} row(s) written.`);
}

async function reset(this: Command, options: { yes?: boolean }) {
  if (!options.yes) throw new CliError('This drops every table of the database. Run again with --yes to do it.');
  const answer = await (await signedInClient(this)).call(spacedbApi.reset, { params: { id: await spaceIdFor(this) } });
  if (globalOptions(this).json) return printJson(answer);
  say(`Every table was dropped. To undo: atrium db restore ${answer.before}`);
}

async function restore(this: Command, at: string) {
  const value = /^\d+$/.test(at) ? Number(at) : at;
  const answer = await (await signedInClient(this)).call(spacedbApi.restore, { params: { id: await spaceIdFor(this) }, body: { at: value } });
  if (globalOptions(this).json) return printJson(answer);
  say(`Restored to ${new Date(answer.restoredTo).toISOString()}. To undo: atrium db restore ${answer.undoBookmark}`);
}

async function writes(this: Command, options: { limit?: string }) {
  const answer = await (await signedInClient(this)).call(spacedbApi.writes, { params: { id: await spaceIdFor(this) }, query: { limit: options.limit as never } });
  if (globalOptions(this).json) return printJson(answer.writes);
  if (answer.writes.length === 0) return say('No writes yet.');
  printTable(
    answer.writes.map((w) => ({
      at: formatTime(w.at),
      by: w.user ? `@${w.user.handle}` : `guest${w.guestName ? ` ${w.guestName}` : ''}`,
      rows: String(w.rowsWritten),
      statement: (w.name ? `[${w.name}] ` : '') + w.statement.replace(/\s+/g, ' ').slice(0, 80),
    })),
    ['at', 'by', 'rows', 'statement'],
  );
}

async function guestWrites(this: Command, options: { set?: string }) {
  const client = await signedInClient(this);
  const id = await spaceIdFor(this);
  let statements;
  if (options.set) {
    const parsed = JSON.parse(await readFile(options.set, 'utf8'));
    statements = (await client.call(spacedbApi.putGuestWrites, { params: { id }, body: { statements: Array.isArray(parsed) ? parsed : parsed.statements } })).statements;
  } else statements = (await client.call(spacedbApi.guestWrites, { params: { id } })).statements;
  if (globalOptions(this).json) return printJson(statements);
  if (statements.length === 0) return say('No guest writes.');
  printTable(statements.map((s) => ({ name: s.name, sql: s.sql })), ['name', 'sql']);
}

export function register(program: Command) {
  const db = program
    .command('db')
    .description("A space's SQL database: query it, list its tables, export, import, reset and restore")
    .addHelpText('after', '\nExamples:\n  $ atrium db tables\n  $ atrium db query "SELECT count(*) FROM notes"');
  withSpaceOption(db.command('query <sql>'))
    .description('Run SQL (read-only unless --write)')
    .option('-w, --write', 'allow the SQL to change the database (needs push)')
    .option('-p, --param <value...>', 'values for ? placeholders, in order (JSON where it parses, else text)')
    .addHelpText('after', '\nExamples:\n  $ atrium db query "SELECT * FROM notes WHERE id = ?" -p 3\n  $ atrium db query --write "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)"')
    .action(query);
  withSpaceOption(db.command('tables'))
    .description('List tables and views with their columns, rows and sizes')
    .addHelpText('after', '\nExample:\n  $ atrium db tables --json')
    .action(tables);
  withSpaceOption(db.command('export'))
    .description('Write the database as a SQL dump to standard output or a file')
    .option('-o, --output <file>', 'write to this file')
    .addHelpText('after', '\nExample:\n  $ atrium db export -o backup.sql')
    .action(exportDump);
  withSpaceOption(db.command('import <file>'))
    .description('Run a SQL dump (from `atrium db export` or sqlite3 .dump) against the database')
    .addHelpText('after', '\nExample:\n  $ atrium db import backup.sql')
    .action(importDump);
  withSpaceOption(db.command('reset'))
    .description('Drop every table, view, index and trigger (admin); prints how to undo it')
    .option('--yes', 'really do it')
    .addHelpText('after', '\nExample:\n  $ atrium db reset --yes')
    .action(reset);
  withSpaceOption(db.command('restore <at>'))
    .description('Restore the database as it was at a moment of the last 30 days (admin): milliseconds, an ISO date-time, or a bookmark')
    .addHelpText('after', '\nExamples:\n  $ atrium db restore 2026-11-22T15:00:00Z\n  $ atrium db restore bm-42')
    .action(restore);
  withSpaceOption(db.command('writes'))
    .description('The write log, newest first')
    .option('-n, --limit <n>', 'how many (default 100)')
    .addHelpText('after', '\nExample:\n  $ atrium db writes -n 20')
    .action(writes);
  withSpaceOption(db.command('guest-writes'))
    .description('Show the named writes guests may run, or replace them with --set')
    .option('--set <file>', 'a JSON file: [{ "name": "sign", "sql": "INSERT INTO book (msg) VALUES (?)" }]')
    .addHelpText('after', '\nExamples:\n  $ atrium db guest-writes\n  $ atrium db guest-writes --set guest-writes.json')
    .action(guestWrites);
}
