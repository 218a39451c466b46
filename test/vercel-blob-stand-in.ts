// A local stand-in for the Vercel Blob HTTP API (the calls @vercel/blob makes
// for put, copy, head and del, and reading private blobs), on 127.0.0.1.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

export async function startBlobStandIn(token: string) {
  const blobs = new Map<string, Buffer>();
  const server = createServer(async (request, response) => {
    const url = new URL(request.url!, 'http://127.0.0.1');
    url.pathname = url.pathname.replace(/\/+$/, '');
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${token}`) return json(403, { error: { code: 'forbidden', message: 'bad token' } });
    const described = (pathname: string) => ({
      url: `${base}/blob/${pathname}`,
      downloadUrl: `${base}/blob/${pathname}?download=1`,
      pathname,
      contentType: 'application/octet-stream',
      contentDisposition: 'attachment',
      size: blobs.get(pathname)!.length,
      uploadedAt: new Date().toISOString(),
      etag: '"x"',
    });
    // A blob's URL, or its pathname (del and head take either).
    const pathOf = (blobUrl: string) => decodeURIComponent(new URL(blobUrl, `${base}/blob/`).pathname.replace(/^\/blob\//, ''));
    if (url.pathname.startsWith('/blob/') && request.method === 'GET') {
      const blob = blobs.get(pathOf(url.pathname));
      if (!blob) return json(404, { error: { code: 'not_found', message: 'no blob' } });
      // One range a-b, as the store asks for one.
      const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
      if (range) {
        const part = blob.subarray(Number(range[1]), Number(range[2]) + 1);
        response.writeHead(206, { 'content-length': part.length, 'content-range': `bytes ${range[1]}-${range[2]}/${blob.length}` });
        return response.end(part);
      }
      response.writeHead(200, { 'content-length': blob.length });
      return response.end(blob);
    }
    if (url.pathname === '/api/blob' && request.method === 'PUT' && url.searchParams.has('fromUrl')) {
      const source = blobs.get(pathOf(url.searchParams.get('fromUrl')!));
      if (!source) return json(404, { error: { code: 'not_found', message: 'no source' } });
      blobs.set(url.searchParams.get('pathname')!, source);
      return json(200, described(url.searchParams.get('pathname')!));
    }
    if (url.pathname === '/api/blob' && request.method === 'PUT') {
      let body: Buffer;
      try {
        body = await readBody(request);
      } catch {
        return; // The client gave up mid-body: nothing is stored.
      }
      blobs.set(url.searchParams.get('pathname')!, body);
      return json(200, described(url.searchParams.get('pathname')!));
    }
    if (url.pathname === '/api/blob' && request.method === 'GET' && !url.searchParams.has('url')) {
      // list(): the blobs under a prefix, one page.
      const prefix = url.searchParams.get('prefix') ?? '';
      const limit = Number(url.searchParams.get('limit') ?? 1000);
      const listed = [...blobs.keys()].filter((p) => p.startsWith(prefix)).slice(0, limit);
      return json(200, { blobs: listed.map(described), hasMore: false });
    }
    if (url.pathname === '/api/blob' && request.method === 'GET') {
      const pathname = pathOf(url.searchParams.get('url')!);
      if (!blobs.has(pathname)) return json(404, { error: { code: 'not_found', message: 'no blob' } });
      return json(200, described(pathname));
    }
    if (url.pathname === '/api/blob/delete' && request.method === 'POST') {
      const { urls } = JSON.parse((await readBody(request)).toString()) as { urls: string[] };
      for (const u of urls) blobs.delete(pathOf(u));
      return json(200, {});
    }
    json(400, { error: { code: 'bad_request', message: `unexpected ${request.method} ${url.pathname}` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { apiUrl: `${base}/api/blob`, blobs, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
