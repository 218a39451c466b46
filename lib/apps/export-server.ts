// The server of an exported app (export.ts writes it as server.js): Node's own
// modules only, so the unpacked folder runs with `npm start` and nothing installed.
export const EXPORT_SERVER = `// A live app exported from Atrium, served with Node alone (22.5 or later):
// no dependencies. \`npm start\` serves public/ and the app's tables from
// data.sqlite, which is created from data.sql on the first start.
//   PORT   the port to listen on (default 3000)
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

const here = import.meta.dirname;
const publicDir = path.join(here, 'public');
const spec = JSON.parse(readFileSync(path.join(publicDir, 'app.json'), 'utf8'));
const file = path.join(here, 'data.sqlite');
const fresh = !existsSync(file);
const db = new DatabaseSync(file);
if (fresh) db.exec(readFileSync(path.join(here, 'data.sql'), 'utf8'));

const TYPES = { '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png' };
const quote = (name) => \`"\${name.replace(/"/g, '""')}"\`;

function send(response, status, body, type = 'application/json') {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  response.end(type === 'application/json' ? JSON.stringify(body) : body);
}

async function readJson(request) {
  let size = 0;
  const parts = [];
  for await (const part of request) {
    size += part.length;
    if (size > 65536) throw new Error('too large');
    parts.push(part);
  }
  return JSON.parse(Buffer.concat(parts).toString('utf8'));
}

async function api(request, response, rest) {
  if (rest === 'session') return send(response, 200, { admin: false, label: null });
  const match = /^tables\\/([a-z][a-z0-9_]{0,59})$/.exec(rest);
  const table = match && spec.tables.find((t) => t.name === match[1]);
  if (!table) return send(response, 404, { error: { code: 'not_found', message: 'No such table in this app.' } });
  const columns = table.columns.map(quote).join(', ');
  if (request.method === 'GET') {
    const rows = db.prepare(\`SELECT \${columns} FROM \${quote(table.name)} ORDER BY id LIMIT 1000\`).all();
    return send(response, 200, { columns: table.columns, rows });
  }
  if (request.method !== 'POST') return send(response, 405, { error: { code: 'method_not_allowed', message: 'Use GET or POST.' } });
  if (!table.guestWrites) return send(response, 403, { error: { code: 'forbidden', message: 'Visitors may not add rows to this table.' } });
  let body;
  try {
    body = await readJson(request);
  } catch {
    return send(response, 400, { error: { code: 'bad_request', message: 'Send {"values": {column: text}}.' } });
  }
  const values = table.columns.map((c) => String(body?.values?.[c] ?? '').slice(0, 2000));
  if (!values[0]) return send(response, 400, { error: { code: 'bad_request', message: \`values.\${table.columns[0]}: required.\` } });
  db.prepare(\`INSERT INTO \${quote(table.name)} (\${columns}) VALUES (\${values.map(() => '?').join(', ')})\`).run(...values);
  return send(response, 201, { row: Object.fromEntries(table.columns.map((c, i) => [c, values[i]])) });
}

const server = createServer(async (request, response) => {
  try {
    const url = new URL(request.url, 'http://localhost');
    const inner = decodeURIComponent(url.pathname).replace(/^\\/+/, '');
    if (inner.startsWith('_api/')) return await api(request, response, inner.slice(5));
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, 'Use GET.', 'text/plain');
    let target = path.join(publicDir, inner.endsWith('/') || inner === '' ? \`\${inner}index.html\` : inner);
    if (!target.startsWith(publicDir + path.sep)) return send(response, 404, 'Not found', 'text/plain');
    if (!existsSync(target) && existsSync(path.join(target, 'index.html'))) {
      response.writeHead(308, { location: \`\${url.pathname}/\` });
      return response.end();
    }
    const body = await readFile(target).catch(() => null);
    if (!body) return send(response, 404, 'Not found', 'text/plain; charset=utf-8');
    response.writeHead(200, { 'content-type': TYPES[path.extname(target)] ?? 'application/octet-stream' });
    response.end(request.method === 'HEAD' ? undefined : body);
  } catch (error) {
    send(response, 500, { error: { code: 'internal_error', message: String(error) } });
  }
});

server.listen(Number(process.env.PORT ?? 3000), () => {
  console.log(\`\${spec.name} is listening on http://localhost:\${server.address().port}/\`);
});
`;
