// The baseline of bench/serve.ts: a bare node:http static server that reads
// each file from disk on every request and answers it with the headers Atrium
// sends for a public site's file (a strong ETag from the content hash, 304
// when the client has it, nosniff, the site's policy, Vary and Accept-Ranges;
// the benchmark asks for no range), and nothing else: no access check, no
// view, no log. A file with a brotli copy beside it (<name>.br) is sent as
// that copy, with its own ETag, to a client whose Accept-Encoding names br.
//
// Run by bench/serve.ts as `node bench/baseline-serve.ts` with HOST, PORT,
// SITE_DIR (the folder served) and SITE_CSP set; it runs until SIGTERM.
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';

const root = process.env.SITE_DIR!;
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };

// The hashes are known before any request, as Atrium's manifest knows them.
const files = new Map<string, { absolute: string; sha256: string; contentType: string; brotli: boolean }>();
const names = readdirSync(root);
for (const name of names.filter((n) => !n.endsWith('.br'))) {
  const absolute = path.join(root, name);
  const sha256 = createHash('sha256').update(readFileSync(absolute)).digest('hex');
  files.set(`/${name}`, { absolute, sha256, contentType: TYPES[path.extname(name)] ?? 'application/octet-stream', brotli: names.includes(`${name}.br`) });
}

const server = http.createServer(async (request, response) => {
  const pathname = (request.url ?? '/').split('?')[0];
  const file = files.get(pathname === '/' ? '/index.html' : pathname);
  if (!file) return void response.writeHead(404).end();
  const brotli = file.brotli && /\bbr\b/.test(request.headers['accept-encoding'] ?? '');
  const etag = brotli ? `"${file.sha256}-br"` : `"${file.sha256}"`;
  const headers: Record<string, string> = {
    'x-request-id': randomUUID(),
    etag,
    'x-content-type-options': 'nosniff',
    'x-content-sha256': file.sha256,
    'cache-control': 'public, no-cache',
    'content-security-policy': process.env.SITE_CSP!,
    'referrer-policy': 'strict-origin-when-cross-origin',
    vary: 'Accept-Encoding',
    'accept-ranges': 'bytes',
  };
  if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) return void response.writeHead(304, headers).end();
  const body = await readFile(brotli ? `${file.absolute}.br` : file.absolute);
  const coding: Record<string, string> = brotli ? { 'content-encoding': 'br' } : {};
  response.writeHead(200, { ...headers, 'content-type': file.contentType, ...coding, 'content-length': String(body.length) }).end(body);
});
server.listen(Number(process.env.PORT), process.env.HOST);
