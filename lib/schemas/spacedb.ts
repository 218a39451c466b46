// "Spaces: database": a sandboxed SQLite database per space (lib/spacedb).
import { z } from 'zod';
import { text, timestamp, user, wholeNumber } from './common.ts';
import { endpoint } from './endpoint.ts';

const tag = 'Spaces: database';
const idParams = z.object({ id: text().min(1).max(100) });

/** The longest SQL a request may send (D1's 100 KB per statement), and a dump replayed in one request. */
export const MAX_SQL_CHARS = 100_000;
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

const param = z.union([text({ multiline: true }), z.number(), z.null(), z.boolean(), z.record(text(), z.unknown()), z.array(z.unknown())]);

export const cell = z
  .union([z.string(), z.number(), z.null(), z.object({ blob: z.string().meta({ description: 'The bytes, base64.' }) })])
  .meta({ id: 'SpaceDbValue', description: 'Text, a number (integers past 2^53 come as text), null, or a blob as { blob: base64 }.' });

export const queryResult = z
  .object({
    columns: z.array(z.string()),
    rows: z.array(z.array(cell)),
    rowsRead: z.number().int().meta({ description: 'Rows the statements returned (before truncation).' }),
    rowsWritten: z.number().int().meta({ description: 'Rows inserted, updated or deleted, including by triggers, foreign keys and REPLACE.' }),
    truncated: z.boolean().meta({ description: 'True when rows stop short of the result (past 10,000 rows or 8 MB).' }),
  })
  .meta({ id: 'SpaceDbQueryResult' });

export const guestWrite = z
  .object({
    name: text().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1 to 64 letters, digits, dots, dashes or underscores'),
    sql: text({ multiline: true }).min(1).max(10_000),
  })
  .meta({ id: 'SpaceDbGuestWrite' });

const tableRecord = z.object({
  name: z.string(),
  type: z.enum(['table', 'view']).or(z.string()),
  columns: z.array(z.object({ name: z.string(), type: z.string(), notNull: z.boolean(), primaryKey: z.boolean() })),
  rows: z.number().int().nullable().meta({ description: 'Null for views.' }),
  size: z.number().int().meta({ description: 'Bytes of its pages and its indexes.' }),
});

export const writeRecord = z
  .object({
    id: z.string(),
    at: timestamp,
    user: user.nullable(),
    guestName: z.string().nullable(),
    origin: z.object({ kind: z.enum(['member', 'guest']), city: z.string().nullable(), country: z.string().nullable() }),
    name: z.string().nullable().meta({ description: 'The guest write run, if any.' }),
    statement: z.string(),
    rowsWritten: z.number().int(),
  })
  .meta({ id: 'SpaceDbWrite' });

export const spacedbApi = {
  query: endpoint({
    method: 'POST',
    path: '/v1/spaces/{id}/db/query',
    tag,
    summary: "Run SQL on the space's database (write: true needs push; a guest runs a named guest write)",
    auth: 'optional',
    checksOwnToken: true,
    params: idParams,
    body: z.object({
      sql: text({ multiline: true })
        .min(1)
        .meta({ description: `SQL, one or more statements; for a guest, the name of a guest write. Up to ${MAX_SQL_CHARS.toLocaleString('en')} characters per statement.` }),
      params: z.array(param).max(100).default([]).meta({ description: 'Bound to ? placeholders; objects as JSON text, booleans as 0/1.' }),
      write: z.boolean().default(false),
      guest: z
        .object({ name: text().min(1).max(100).optional() })
        .optional()
        .meta({ description: 'Sent by a guest (no token) running a guest write by name.' }),
    }),
    maxBodyBytes: MAX_IMPORT_BYTES,
    response: queryResult,
    errors: [400, 401, 403, 404, 413, 429],
  }),
  overview: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/db',
    tag,
    summary: 'Tables with columns, row counts and sizes',
    auth: 'optional',
    params: idParams,
    response: z.object({ tables: z.array(tableRecord), databaseSize: z.number().int() }).meta({ id: 'SpaceDbOverview' }),
    errors: [401, 404, 429],
  }),
  exists: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/db/exists',
    tag,
    summary: 'Whether the database has tables',
    auth: 'optional',
    params: idParams,
    response: z.object({ hasTables: z.boolean() }),
    errors: [401, 404, 429],
  }),
  guestWrites: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/db/guest-writes',
    tag,
    summary: 'The named writes guests may run',
    auth: 'user',
    params: idParams,
    response: z.object({ statements: z.array(guestWrite) }),
    errors: [401, 403, 404],
  }),
  putGuestWrites: endpoint({
    method: 'PUT',
    path: '/v1/spaces/{id}/db/guest-writes',
    tag,
    summary: 'Replace the named writes guests may run; each must be one INSERT, UPDATE, DELETE or REPLACE',
    auth: 'user',
    params: idParams,
    body: z.object({ statements: z.array(guestWrite).max(100) }),
    response: z.object({ statements: z.array(guestWrite) }),
    errors: [400, 401, 403, 404, 429],
  }),
  writes: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/db/writes',
    tag,
    summary: 'The write log, newest first',
    auth: 'user',
    params: idParams,
    query: z.object({ limit: wholeNumber(1, 1000).optional() }),
    response: z.object({ writes: z.array(writeRecord) }),
    errors: [400, 401, 403, 404],
  }),
  export: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/db/export',
    tag,
    summary: 'A plain-text SQL dump, as the attachment <spaceId>.sql',
    auth: 'user',
    params: idParams,
    response: null,
    status: 200,
    errors: [401, 403, 404, 429],
  }),
  reset: endpoint({
    method: 'POST',
    path: '/v1/spaces/{id}/db/reset',
    tag,
    summary: 'Drop every table, view, index and trigger (admin); `before` restores what was',
    auth: 'user',
    params: idParams,
    response: z.object({ before: timestamp.meta({ description: 'Pass as `at` to restore to undo the reset.' }) }),
    errors: [401, 403, 404, 429],
  }),
  restore: endpoint({
    method: 'POST',
    path: '/v1/spaces/{id}/db/restore',
    tag,
    summary: 'Restore the database as it was at a moment of the last 30 days (admin); undoable',
    auth: 'user',
    params: idParams,
    body: z.object({
      at: z
        .union([z.number().int(), text().min(1).max(100)])
        .meta({ description: 'Milliseconds since the epoch, an ISO 8601 date-time with a zone, or a bookmark (undoBookmark of an earlier restore).' }),
    }),
    response: z.object({ restoredTo: timestamp, undoBookmark: z.string() }).meta({ id: 'SpaceDbRestore' }),
    errors: [400, 401, 403, 404, 429, 503],
  }),
};
