import { describe, expect, it } from 'vitest';
import { GET as headRoute } from '@/app/v1/spaces/[id]/head/route.ts';
import { GET as linkRoute } from '@/app/v1/spaces/[id]/uploads/[uploadId]/link/route.ts';
import { GET as rawRoute } from '@/app/v1/spaces/[id]/uploads/[uploadId]/raw/route.ts';
import { DELETE as deleteRoute } from '@/app/v1/spaces/[id]/uploads/[uploadId]/route.ts';
import { GET as listRoute, POST as uploadRoute } from '@/app/v1/spaces/[id]/uploads/route.ts';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { call, download, signIn } from '../helpers.ts';
import { bytes, makeSpace, sha } from './fixtures.ts';

function upload(token: string, spaceId: string, name: string, content: string, headers: Record<string, string> = { 'content-length': String(Buffer.byteLength(content)) }) {
  return call(uploadRoute, 'POST', `/v1/spaces/${spaceId}/uploads?name=${encodeURIComponent(name)}`, { token, rawBody: bytes(content), headers, params: { id: spaceId } });
}

describe('uploads', () => {
  it('stores a raw body with its name, size, hash and type, newest first in the list', async () => {
    const { token, user } = await signIn('uploader');
    const space = await makeSpace(token, 'uploader');
    const first = await upload(token, space.id, 'report.pdf', '%PDF-1.4 fake');
    expect(first.status).toBe(200);
    expect(first.json).toEqual({
      id: expect.stringMatching(/^upl_/),
      name: 'report.pdf',
      size: 13,
      sha256: sha('%PDF-1.4 fake'),
      contentType: 'application/pdf',
      uploadedBy: user,
      createdAt: expect.any(Number),
    });
    const second = await upload(token, space.id, 'notes.txt', 'hello', { 'content-length': '5', 'content-type': 'text/plain' });
    const list = await call(listRoute, 'GET', '', { params: { id: space.id } });
    expect(list.json.uploads.map((u: { id: string }) => u.id)).toEqual([second.json.id, first.json.id]);
    const head = await call(headRoute, 'GET', '', { params: { id: space.id } });
    expect(head.json.uploads).toBe(2);
    expect(head.json.uploadsUpdatedAt).toBe(second.json.createdAt);
  });

  it('needs Content-Length (400), refuses more than MAX_UPLOAD_BYTES (413) and a body that disagrees with its length (400)', async () => {
    const { token } = await signIn('uploader-b');
    const space = await makeSpace(token, 'uploader-b');
    expect((await upload(token, space.id, 'a.txt', 'abc', {})).status).toBe(400);
    const limit = config.maxUploadBytes;
    config.maxUploadBytes = 4;
    try {
      const big = await upload(token, space.id, 'a.txt', 'abcde');
      expect(big.status).toBe(413);
      expect(big.json.error.code).toBe('too_large');
    } finally {
      config.maxUploadBytes = limit;
    }
    expect((await upload(token, space.id, 'a.txt', 'abcdef', { 'content-length': '3' })).status).toBe(400);
    expect((await upload(token, space.id, 'a/b.txt', 'abc')).status).toBe(400);
    expect(await db.upload.count({ where: { spaceId: space.id } })).toBe(0);
  });

  it('needs push to upload or delete (403, or 404 when the space is hidden), and sign-in (401)', async () => {
    const { token } = await signIn('uploader-c');
    const other = await signIn('uploader-c-other');
    const open = await makeSpace(token, 'uploader-c');
    const hidden = await makeSpace(token, 'uploader-c', { visibility: 'members' });
    expect((await upload(other.token, open.id, 'x.txt', 'x')).status).toBe(403);
    expect((await upload(other.token, hidden.id, 'x.txt', 'x')).status).toBe(404);
    expect((await upload('', open.id, 'x.txt', 'x')).status).toBe(401);
    const made = await upload(token, open.id, 'x.txt', 'x');
    const del = (t: string) => call(deleteRoute, 'DELETE', '', { token: t, params: { id: open.id, uploadId: made.json.id } });
    expect((await del(other.token)).status).toBe(403);
    expect((await call(listRoute, 'GET', '', { params: { id: hidden.id } })).status).toBe(404);
    expect((await del(token)).status).toBe(204);
    expect((await del(token)).status).toBe(404);
  });

  it('keeps a declared media type with its parameters, and guesses from the name when the header is not one', async () => {
    const { token } = await signIn('uploader-e');
    const space = await makeSpace(token, 'uploader-e');
    // Valid JSON, as the test helper parses JSON answers.
    const typed = (name: string, type: string) => upload(token, space.id, name, '123', { 'content-length': '3', 'content-type': type });
    for (const [name, type, stored] of [
      ['latin.txt', 'text/plain; charset=ISO-8859-1', 'text/plain; charset=ISO-8859-1'],
      ['data.json', 'Application/JSON', 'application/json'],
      ['quoted.txt', 'text/plain; format="flowed"', 'text/plain; format="flowed"'],
      ['notes.txt', 'application/octet-stream', 'text/plain'],
      ['page.html', 'text/h\u00e9ml', 'text/html'],
      ['page2.html', 'text/html; charset="caf\u00e9"', 'text/html'],
      ['page3.html', 'text/html;', 'text/html'],
      ['blob.bin', 'not a type', 'application/octet-stream'],
      ['long.txt', `text/${'x'.repeat(300)}`, 'text/plain'],
    ]) {
      const made = await typed(name, type);
      expect(made.status, type).toBe(200);
      expect(made.json.contentType, type).toBe(stored);
      const raw = await call(rawRoute, 'GET', '', { params: { id: space.id, uploadId: made.json.id } });
      expect(raw.status, type).toBe(200);
      expect(raw.headers.get('content-type')).toBe(stored);
    }
  });

  it('serves the bytes as a sandboxed attachment with x-content-sha256, and as a 5-minute link', async () => {
    const { token } = await signIn('uploader-d');
    const space = await makeSpace(token, 'uploader-d');
    const made = await upload(token, space.id, 'page.html', '<script>alert(1)</script>');
    const raw = await call(rawRoute, 'GET', '', { params: { id: space.id, uploadId: made.json.id } });
    expect(raw.status).toBe(200);
    expect(raw.text).toBe('<script>alert(1)</script>');
    expect(raw.headers.get('content-type')).toBe('text/html');
    expect(raw.headers.get('content-disposition')).toContain('attachment; filename="page.html"');
    expect(raw.headers.get('x-content-type-options')).toBe('nosniff');
    expect(raw.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(raw.headers.get('x-content-sha256')).toBe(sha('<script>alert(1)</script>'));
    expect((await call(rawRoute, 'GET', '', { params: { id: space.id, uploadId: 'upl_nope' } })).status).toBe(404);
    const link = await call(linkRoute, 'GET', '', { params: { id: space.id, uploadId: made.json.id } });
    expect(link.status).toBe(200);
    expect(link.json.expiresAt - Date.now()).toBeLessThanOrEqual(5 * 60 * 1000);
    const ticket = link.json.url.split('/dl/')[1];
    const got = await download(ticket);
    expect(got.text).toBe('<script>alert(1)</script>');
    expect(got.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  });
});
