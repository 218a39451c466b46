// An app's data lives in space databases (lib/spacedb), one SQLite table per
// app table (an id, then a TEXT column per column):
//   - the preview's: the database of the app's own space, whose tables each
//     build creates or replaces with the page's rows;
//   - the live data: the database of a second space of kind app, made when the
//     app first goes live (App.liveSpaceId). Going live with copyData copies
//     the preview's rows into it; visitors' rows (forms) are guest writes to
//     it, in its write log; the export's data.sql is its dump.
// Every statement runs as the system (lib/spacedb/database.ts `system*`): the
// app's own rules (serving.ts) decided who may read or add rows. Reads run as
// the app, so one app's visitors never wait behind another's.
import type { Client } from '../core/caller.ts';
import { db } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';
import { newId } from '../ids.ts';
import { systemDump, systemRead, systemTables, systemWrite, type SystemLog } from '../spacedb/database.ts';
import { versionFileText } from '../spaces/publishing.ts';
import { appSpec, type AppSpec, type TableSpec } from './spec.ts';

export const MAX_ROWS_PER_TABLE = 10_000;
export type Row = Record<string, string>;

const specs = new Map<string, AppSpec | null>();

/** The spec (app.json) of one version of an app's space; versions never change, so it is cached. */
export async function specOf(spaceId: string, version: number): Promise<AppSpec | null> {
  const key = `${spaceId}:${version}`;
  if (specs.has(key)) return specs.get(key)!;
  const file = await versionFileText(spaceId, version, 'app.json');
  let spec: AppSpec | null = null;
  try {
    spec = file?.text ? appSpec.parse(JSON.parse(file.text)) : null;
  } catch {
    spec = null;
  }
  if (specs.size > 1000) specs.clear();
  specs.set(key, spec);
  return spec;
}

const sqlName = (name: string) => `"${name.replaceAll('"', '""')}"`;
const sqlString = (value: string) => `'${value.replaceAll("'", "''")}'`;

function createTable(table: TableSpec): string {
  return `CREATE TABLE ${sqlName(table.name)} (id INTEGER PRIMARY KEY, ${table.columns.map((c) => `${sqlName(c)} TEXT NOT NULL DEFAULT ''`).join(', ')});`;
}

function insert(table: TableSpec, values: string[]): string {
  return `INSERT INTO ${sqlName(table.name)} (${table.columns.map(sqlName).join(', ')}) VALUES (${table.columns.map((_, i) => sqlString(values[i] ?? '')).join(', ')});`;
}

/** Statements in jobs of at most ~1 MB of SQL (each job is one transaction and one change in the history). */
async function writeBatched(spaceId: string, statements: string[], log: SystemLog): Promise<void> {
  let batch: string[] = [];
  let size = 0;
  const flush = async () => {
    if (batch.length) await systemWrite(spaceId, batch.join('\n'), [], log);
    batch = [];
    size = 0;
  };
  for (const statement of statements) {
    if (size + statement.length > 1_000_000) await flush();
    batch.push(statement);
    size += statement.length;
  }
  await flush();
}

/** A build: the page's tables, with their first rows, replace those of the preview's database. */
export async function writePreviewData(spaceId: string, spec: AppSpec, userId: string): Promise<void> {
  if (spec.tables.length === 0) return;
  const log: SystemLog = { userId, guestName: null, kind: 'member', name: 'app build' };
  const schema = spec.tables.flatMap((t) => [`DROP TABLE IF EXISTS ${sqlName(t.name)};`, createTable(t)]);
  const rows = spec.tables.flatMap((t) => t.rows.map((r) => insert(t, r)));
  // Schema and the first rows in one job when they fit, so the preview never shows empty tables.
  await writeBatched(spaceId, [...schema, ...rows], log);
}

/**
 * The live data's tables for `spec` (going live, promote, rollback): missing
 * tables are created and missing columns added; nothing is dropped, so rows
 * outlive versions that no longer show them.
 */
async function ensureLiveTables(appId: string, liveSpaceId: string, spec: AppSpec, userId: string): Promise<void> {
  const { tables } = await systemTables(appId, liveSpaceId);
  const statements: string[] = [];
  for (const table of spec.tables) {
    const existing = tables.find((t) => t.name === table.name);
    if (!existing) statements.push(createTable(table));
    else {
      for (const column of table.columns) {
        if (!existing.columns.some((c) => c.name === column)) statements.push(`ALTER TABLE ${sqlName(table.name)} ADD COLUMN ${sqlName(column)} TEXT NOT NULL DEFAULT '';`);
      }
    }
  }
  if (statements.length) await systemWrite(liveSpaceId, statements.join('\n'), [], { userId, guestName: null, kind: 'member', name: 'app schema' });
}

/** The live data's space, made on first use (a members-only space of the app's workspace, of kind app). */
async function liveSpaceOf(appId: string, userId: string): Promise<string> {
  const app = await db.app.findUniqueOrThrow({ where: { id: appId }, select: { liveSpaceId: true, name: true, space: { select: { workspaceId: true } } } });
  if (app.liveSpaceId) return app.liveSpaceId;
  const spaceId = newId('space');
  return db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ liveSpaceId: string | null }[]>`SELECT "liveSpaceId" FROM "App" WHERE id = ${appId} FOR UPDATE`;
    if (locked?.liveSpaceId) return locked.liveSpaceId;
    await tx.space.create({ data: { id: spaceId, workspaceId: app.space.workspaceId, name: `App data: ${app.name}`.slice(0, 120), kind: 'app', visibility: 'members', createdById: userId } });
    await tx.app.update({ where: { id: appId }, data: { liveSpaceId: spaceId } });
    return spaceId;
  });
}

/** Before a version goes live: the live data's space and tables exist for its spec. */
export async function prepareLiveData(appId: string, spec: AppSpec, userId: string): Promise<string> {
  const liveSpaceId = await liveSpaceOf(appId, userId);
  await ensureLiveTables(appId, liveSpaceId, spec, userId);
  return liveSpaceId;
}

async function liveSpaceId(appId: string): Promise<string | null> {
  return (await db.app.findUnique({ where: { id: appId }, select: { liveSpaceId: true } }))?.liveSpaceId ?? null;
}

function asText(value: unknown): string {
  return value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export async function listRows(appId: string, table: TableSpec, limit = 1000): Promise<Row[]> {
  const spaceId = await liveSpaceId(appId);
  if (!spaceId) return [];
  const result = await systemRead(appId, spaceId, `SELECT ${table.columns.map(sqlName).join(', ')} FROM ${sqlName(table.name)} ORDER BY id LIMIT ${Math.floor(limit)}`);
  return result.rows.map((r) => Object.fromEntries(table.columns.map((c, i) => [c, asText(r[i])])));
}

export async function countRows(appId: string, table: TableSpec): Promise<number> {
  const spaceId = await liveSpaceId(appId);
  if (!spaceId) return 0;
  const result = await systemRead(appId, spaceId, `SELECT COUNT(*) FROM ${sqlName(table.name)}`);
  return Number(result.rows[0]?.[0] ?? 0);
}

/** Who added a row: a visitor (a guest write, named by `label` when known) from `client`. */
export type RowAuthor = { label: string | null; client: Client };

export async function addRow(appId: string, table: TableSpec, row: Row, by: RowAuthor): Promise<void> {
  const spaceId = await liveSpaceId(appId);
  if (!spaceId) throw new ApiError('conflict', 'This app has no live data yet.');
  const sql = `INSERT INTO ${sqlName(table.name)} (${table.columns.map(sqlName).join(', ')}) VALUES (${table.columns.map(() => '?').join(', ')})`;
  await systemWrite(spaceId, sql, table.columns.map((c) => row[c] ?? ''), { userId: null, guestName: by.label, kind: 'guest', name: `add to ${table.name}` }, by.client);
}

/** The preview database's rows of the spec's tables, as INSERT statements for the live data. */
async function previewRows(appId: string, previewSpaceId: string, spec: AppSpec): Promise<string[]> {
  const { tables } = await systemTables(appId, previewSpaceId);
  const statements: string[] = [];
  for (const table of spec.tables) {
    const stored = tables.find((t) => t.name === table.name);
    if (!stored) continue;
    const present = table.columns.filter((c) => stored.columns.some((s) => s.name === c));
    if (present.length === 0) continue;
    const result = await systemRead(appId, previewSpaceId, `SELECT ${present.map(sqlName).join(', ')} FROM ${sqlName(table.name)} ORDER BY id LIMIT ${MAX_ROWS_PER_TABLE}`);
    for (const r of result.rows) statements.push(insert(table, table.columns.map((c) => (present.includes(c) ? asText(r[present.indexOf(c)]) : ''))));
  }
  return statements;
}

/**
 * The live data an app starts with when it first goes live: its tables,
 * emptied, then (with copyData) the preview's rows. Run before the app is
 * marked live, so a go-live cut short (a crash, a kill -9) leaves the app not
 * live, and the next try starts the data over: never live with half its rows.
 */
export async function startLiveData(appId: string, previewSpaceId: string, spec: AppSpec, copyData: boolean, userId: string): Promise<number> {
  const spaceId = await prepareLiveData(appId, spec, userId);
  const rows = copyData ? await previewRows(appId, previewSpaceId, spec) : [];
  // A go-live that finished meanwhile (two at once): its data is live, not to be started over.
  const { liveVersion } = await db.app.findUniqueOrThrow({ where: { id: appId }, select: { liveVersion: true } });
  if (liveVersion !== null) throw new ApiError('conflict', 'This app is already live; use promote to put a newer preview live.');
  const empty = spec.tables.map((table) => `DELETE FROM ${sqlName(table.name)};`);
  await writeBatched(spaceId, [...empty, ...rows], { userId, guestName: null, kind: 'member', name: copyData ? 'app copyData' : 'app data start' });
  return rows.length;
}

/**
 * The export's data.sql: the dump of the live data's database, or of the
 * preview's for an app never put live.
 */
export async function dataDump(appId: string, previewSpaceId: string): Promise<string> {
  return systemDump(appId, (await liveSpaceId(appId)) ?? previewSpaceId);
}
