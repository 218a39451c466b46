// The baseline of the publishing benchmark: a bare node:http server that does
// the least a deploy server must do. PUT /blobs/<sha256> streams the body to a
// file while hashing it, refuses a mismatch and renames it into place;
// POST /manifest records path -> hash; GET /files/<path> streams a file.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const store = path.resolve(process.env.DATA_DIR ?? '.atrium/bench/baseline-store');
await rm(store, { recursive: true, force: true });
await mkdir(path.join(store, 'tmp'), { recursive: true });
let manifest = new Map<string, string>();
let temporary = 0;

const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  try {
    if (request.method === 'PUT' && url.pathname.startsWith('/blobs/')) {
      const sha = url.pathname.slice('/blobs/'.length);
      const tmp = path.join(store, 'tmp', String(temporary++));
      const hash = createHash('sha256');
      request.on('data', (chunk: Buffer) => hash.update(chunk));
      await pipeline(request, createWriteStream(tmp));
      if (hash.digest('hex') !== sha) {
        await rm(tmp, { force: true });
        response.writeHead(400).end();
        return;
      }
      await rename(tmp, path.join(store, sha));
      response.writeHead(204).end();
    } else if (request.method === 'POST' && url.pathname === '/manifest') {
      let body = '';
      for await (const chunk of request) body += chunk;
      const files = JSON.parse(body) as { path: string; sha256: string }[];
      manifest = new Map(files.map((f) => [f.path, f.sha256]));
      response.writeHead(204).end();
    } else if (request.method === 'GET' && url.pathname.startsWith('/files/')) {
      const sha = manifest.get(decodeURIComponent(url.pathname.slice('/files/'.length)));
      if (!sha) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/octet-stream', etag: `"${sha}"` });
      await pipeline(createReadStream(path.join(store, sha)), response);
    } else {
      // Answers the harness's readiness probe.
      response.writeHead(404).end();
    }
  } catch (error) {
    if (!response.headersSent) response.writeHead(500);
    response.end(String(error));
  }
});
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
