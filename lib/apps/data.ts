// The live app's data: the rows of its tables, read and added through the
// live app's `_api/` (server/apps.ts) and dumped as SQL in the export.
//
// Kept here, in AppDataRow (one JSON object per row, keyed by column title),
// behind these few functions, until space databases (lib/spacedb) land: then
// each table becomes a table of the app space's database and only this file
// changes. The preview's data is the first rows the build wrote into the
// version (data/<table>.json); going live with copyData copies them here.
import { db } from '../db/client.ts';
import { versionFileText } from '../spaces/publishing.ts';
import { appSpec, type AppSpec } from './spec.ts';

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

export async function listRows(appId: string, table: string, limit = 1000): Promise<Row[]> {
  const rows = await db.appDataRow.findMany({ where: { appId, tableName: table }, orderBy: { id: 'asc' }, take: limit, select: { data: true } });
  return rows.map((r) => r.data as Row);
}

export async function countRows(appId: string, table: string): Promise<number> {
  return db.appDataRow.count({ where: { appId, tableName: table } });
}

export async function addRow(appId: string, table: string, row: Row): Promise<void> {
  await db.appDataRow.create({ data: { appId, tableName: table, data: row } });
}

/** The first rows of the preview's tables, copied into the live data (going live with copyData). */
export async function copyPreviewData(appId: string, spec: AppSpec): Promise<number> {
  const data = spec.tables.flatMap((t) => t.rows.map((r) => ({ appId, tableName: t.name, data: Object.fromEntries(t.columns.map((c, i) => [c, r[i] ?? ''])) })));
  if (data.length) await db.appDataRow.createMany({ data });
  return data.length;
}

/** Every row of every table, in order, for the export's SQL dump. */
export async function allRows(appId: string): Promise<Map<string, Row[]>> {
  const rows = await db.appDataRow.findMany({ where: { appId }, orderBy: { id: 'asc' }, select: { tableName: true, data: true } });
  const tables = new Map<string, Row[]>();
  for (const row of rows) tables.set(row.tableName, [...(tables.get(row.tableName) ?? []), row.data as Row]);
  return tables;
}
