// The baseline of bench/db.ts: POST /v1/spaces/<id>/db/query on a bare
// node:http server that looks the Bearer token up in PostgreSQL (one prepared
// statement) and runs the same SQL, prepared once, on node:sqlite over a copy
// of the space's database, answering the same JSON shape. A guest write runs
// the named statement without a token. Writes commit with synchronous=FULL in
// WAL mode: each is on disk before its answer. Nothing else: no sandbox, no
// history, no write log, no worker process.
//
// Run by bench/db.ts as `node bench/baseline-db.ts` with HOST, PORT,
// DATABASE_URL, SQLITE_FILE and GUEST_WRITES (JSON: name -> SQL) set.
import { createHash } from 'node:crypto';
import http from 'node:http';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
const sqlite = new DatabaseSync(process.env.SQLITE_FILE!);
sqlite.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL');
const guestWrites = JSON.parse(process.env.GUEST_WRITES ?? '{}') as Record<string, string>;

const statements = new Map<string, StatementSync>();
function statement(sql: string): StatementSync {
  let prepared = statements.get(sql);
  if (!prepared) {
    prepared = sqlite.prepare(sql);
    prepared.setReturnArrays(true);
    statements.set(sql, prepared);
  }
  return prepared;
}

async function tokenValid(secret: string): Promise<boolean> {
  const { rows } = await pool.query({
    name: 'token',
    text: 'SELECT t."userId" FROM "Token" t WHERE t.hash = $1 AND (t."expiresAt" IS NULL OR t."expiresAt" > now())',
    values: [createHash('sha256').update(secret).digest('hex')],
  });
  return rows.length === 1;
}

function send(response: http.ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const server = http.createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString()) as { sql: string; params?: (string | number | null)[]; write?: boolean; guest?: object };
    const secret = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const sql = secret ? ((await tokenValid(secret)) ? body.sql : null) : body.guest ? guestWrites[body.sql] : null;
    if (!sql) return send(response, 401, { error: { code: 'unauthorized', message: 'Sign in first.' } });
    const prepared = statement(sql);
    const columns = prepared.columns().map((c) => c.name);
    if (columns.length === 0) {
      const { changes } = prepared.run(...(body.params ?? []));
      return send(response, 200, { columns, rows: [], rowsRead: 0, rowsWritten: Number(changes), truncated: false });
    }
    const rows = prepared.all(...(body.params ?? [])) as unknown as unknown[][];
    send(response, 200, { columns, rows, rowsRead: rows.length, rowsWritten: 0, truncated: false });
  } catch (error) {
    send(response, 400, { error: { code: 'bad_request', message: (error as Error).message } });
  }
});
server.listen(Number(process.env.PORT), process.env.HOST);
