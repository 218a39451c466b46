import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { GET as compareRoute } from '@/app/v1/spaces/[id]/compare/route.ts';
import { GET as downloadLinkRoute } from '@/app/v1/spaces/[id]/download-link/[...path]/route.ts';
import { GET as downloadRoute } from '@/app/v1/spaces/[id]/download/[...path]/route.ts';
import { GET as fileRoute } from '@/app/v1/spaces/[id]/files/[...path]/route.ts';
import { GET as historyRoute } from '@/app/v1/spaces/[id]/history/[...path]/route.ts';
import { POST as planRoute } from '@/app/v1/spaces/[id]/push/plan/route.ts';
import { GET as versionRoute } from '@/app/v1/spaces/[id]/versions/[n]/route.ts';
import { POST as commitRoute, GET as versionsRoute } from '@/app/v1/spaces/[id]/versions/route.ts';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { hashSecret } from '@/lib/secrets.ts';
import { blobStore } from '@/lib/storage/index.ts';
import { storageUsage } from '@/lib/storage/usage.ts';
import { call, download, signIn } from '../helpers.ts';
import { countQueries } from '../query-count.ts';
import { fileList, makeSpace, push, putBlob, sha } from './fixtures.ts';

const plan = (token: string, id: string, files: unknown[]) => call(planRoute, 'POST', `/v1/spaces/${id}/push/plan`, { token, body: { files }, params: { id } });
const commit = (token: string, id: string, files: unknown[], message?: string) =>
  call(commitRoute, 'POST', `/v1/spaces/${id}/versions`, { token, body: { files, message }, params: { id } });
const segments = (path: string) => path.split('/');

describe('push plan', () => {
  it('lists the blobs the workspace lacks and the diff against the latest version', async () => {
    const { token } = await signIn('plan-a');
    const space = await makeSpace(token, 'plan-a');
    await push(token, space.id, { 'index.html': '<h1>one</h1>', 'a.txt': 'a', 'b.txt': 'b' });
    const files = fileList({ 'index.html': '<h1>two</h1>', 'a.txt': 'a', 'c.txt': 'c' });
    const { status, json } = await plan(token, space.id, files);
    expect(status).toBe(200);
    expect(json.baseVersion).toBe(1);
    expect(json.missing.sort()).toEqual([sha('<h1>two</h1>'), sha('c')].sort());
    expect(json.diff).toEqual({ added: ['c.txt'], changed: ['index.html'], removed: ['b.txt'], unchanged: 1 });
  });

  it('names the bad path: absolute, "..", empty segments, backslashes, over-long, duplicates', async () => {
    const { token } = await signIn('plan-b');
    const space = await makeSpace(token, 'plan-b');
    const entry = (path: string) => ({ path, sha256: sha('x'), size: 1 });
    for (const [path, why] of [
      ['/etc/passwd', 'relative'],
      ['a/../../b', '".."'],
      ['a//b', 'empty segment'],
      ['dir/', 'empty segment'],
      ['a\\b', '"/"'],
      ['x'.repeat(1025), '1024'],
      [`${'y'.repeat(256)}/z`, '255 bytes'],
    ]) {
      const { status, json } = await plan(token, space.id, [entry(path)]);
      expect(status, path).toBe(400);
      expect(json.error.code).toBe('bad_request');
      expect(json.error.message).toContain(JSON.stringify(path.slice(0, 200)).slice(0, 30));
      expect(json.error.message).toContain(why);
    }
    // Control characters are refused before the path is looked at, like in any text field.
    const control = await plan(token, space.id, [entry('bad\u0001name')]);
    expect(control.status).toBe(400);
    expect(control.json.error.message).toMatch(/^body\.files\.0\.path: .*control characters/);
    const twice = await plan(token, space.id, [entry('./a.txt'), entry('a.txt')]);
    expect(twice.status).toBe(400);
    expect(twice.json.error.message).toBe('The file a.txt is listed twice.');
    const badHash = await plan(token, space.id, [{ path: 'a', sha256: 'nope', size: 1 }]);
    expect(badHash.status).toBe(400);
    expect(badHash.json.error.message).toMatch(/^body\.files\.0\.sha256/);
  });

  it('refuses a file over MAX_UPLOAD_BYTES with 413 naming it', async () => {
    const { token } = await signIn('plan-c');
    const space = await makeSpace(token, 'plan-c');
    const { status, json } = await plan(token, space.id, [{ path: 'huge.bin', sha256: sha('h'), size: config.maxUploadBytes + 1 }]);
    expect(status).toBe(413);
    expect(json.error.message).toContain('huge.bin');
  });

  it('answers 401 signed out, 404 for an unknown space, 403 to a non-member of a public space', async () => {
    const { token } = await signIn('plan-d');
    const other = await signIn('plan-d-other');
    const space = await makeSpace(token, 'plan-d');
    expect((await plan('', space.id, [])).status).toBe(401);
    expect((await plan(token, 'sp_nope', [])).status).toBe(404);
    expect((await plan(other.token, space.id, [])).status).toBe(403);
    const hidden = await makeSpace(token, 'plan-d', { visibility: 'members' });
    expect((await plan(other.token, hidden.id, [])).status).toBe(404);
  });

  it('takes a constant number of queries, whatever the number of files', async () => {
    const { token } = await signIn('plan-e');
    const space = await makeSpace(token, 'plan-e');
    await push(token, space.id, { 'index.html': 'hi' });
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ path: `f/${i}.txt`, sha256: sha(String(i)), size: 1 }));
    await plan(token, space.id, many(1));
    const spy = vi.spyOn(pg.Client.prototype, 'query');
    await plan(token, space.id, many(10));
    const few = spy.mock.calls.length;
    spy.mockClear();
    const { status, json } = await plan(token, space.id, many(10_000));
    const lots = spy.mock.calls.length;
    spy.mockRestore();
    expect(status).toBe(200);
    expect(json.missing).toHaveLength(10_000);
    expect(lots).toBe(few);
  });
});

describe('PUT blobs/{sha256}', () => {
  it('stores matching bytes (204); the first PUT of a token to a space answers a blob the workspace has without reading it', async () => {
    const one = await signIn('blob-a');
    const space = await makeSpace(one.token, 'blob-a');
    const put = await putBlob(one.token, space.id, 'hello blob');
    expect(put.status).toBe(204);
    const stored = await blobStore().get(sha('hello blob'));
    expect(await new Response(stored).text()).toBe('hello blob');
    // Known already, and this token has not PUT to the space yet: success even though these bytes would not match.
    const { token: second } = await signIn('blob-a');
    expect((await putBlob(second, space.id, 'other bytes', sha('hello blob'))).status).toBe(204);
    // After it, bytes come first (and are checked), then the one statement.
    expect((await putBlob(second, space.id, 'other bytes', sha('hello blob'))).status).toBe(400);
    expect((await putBlob(second, space.id, 'hello blob')).status).toBe(204);
  });

  it('costs one query once its token was looked up and it PUT to the space in the last minute: the token, the space, the role, the room and the blob, after the bytes', async () => {
    const { token } = await signIn('blob-q');
    const space = await makeSpace(token, 'blob-q');
    expect(await countQueries(() => putBlob(token, space.id, 'warm up'))).toBe(2);
    expect(await countQueries(() => putBlob(token, space.id, 'counted bytes'))).toBe(1);
    const blob = await db.blob.findUniqueOrThrow({ where: { sha256: sha('counted bytes') } });
    expect(Number(blob.size)).toBe('counted bytes'.length);
    // One the workspace holds already: that one statement, and it counts once.
    expect(await countQueries(() => putBlob(token, space.id, 'counted bytes'))).toBe(1);
    expect(await db.workspaceBlob.count({ where: { workspaceId: space.workspace.id, sha256: sha('counted bytes') } })).toBe(1);
    expect((await storageUsage(space.workspace.id)).used).toBe('warm up'.length + 'counted bytes'.length);
  });

  it('refuses a token revoked or expired a moment after it was looked up, at once; its bytes are held by no workspace', async () => {
    const one = await signIn('blob-rv');
    const space = await makeSpace(one.token, 'blob-rv');
    expect((await putBlob(one.token, space.id, 'before revoking')).status).toBe(204);
    const { id: tokenId } = await db.token.findUniqueOrThrow({ where: { hash: hashSecret(one.token) }, select: { id: true } });
    await db.token.delete({ where: { id: tokenId } });
    const refused = await putBlob(one.token, space.id, 'after revoking');
    expect(refused.status).toBe(401);
    expect(refused.json.error.message).toMatch(/revoked/);
    // Stored before the statement that refused it, which wrote its Blob row for the collector.
    expect(await db.workspaceBlob.count({ where: { sha256: sha('after revoking') } })).toBe(0);
    expect(await db.blob.count({ where: { sha256: sha('after revoking') } })).toBe(1);
    expect((await putBlob(one.token, space.id, 'after revoking again')).status).toBe(401);
    expect(await blobStore().get(sha('after revoking again'))).toBeNull();

    const two = await signIn('blob-ex');
    const theirs = await makeSpace(two.token, 'blob-ex');
    expect((await putBlob(two.token, theirs.id, 'before expiring')).status).toBe(204);
    await db.token.update({ where: { hash: hashSecret(two.token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await putBlob(two.token, theirs.id, 'after expiring')).status).toBe(401);
  });

  it('refuses bytes that do not match the hash with 400 and keeps nothing of them', async () => {
    const { token } = await signIn('blob-b');
    const space = await makeSpace(token, 'blob-b');
    const claimed = sha('what was promised');
    const put = await putBlob(token, space.id, 'what was sent instead', claimed);
    expect(put.status).toBe(400);
    expect(put.json.error.message).toContain('do not match');
    expect(await blobStore().get(claimed)).toBeNull();
    expect(await blobStore().get(sha('what was sent instead'))).toBeNull();
    expect(await db.workspaceBlob.count({ where: { workspaceId: space.workspace.id } })).toBe(0);
  });

  it('refuses a blob over MAX_UPLOAD_BYTES with 413 and keeps nothing', async () => {
    const { token } = await signIn('blob-c');
    const space = await makeSpace(token, 'blob-c');
    const limit = config.maxUploadBytes;
    config.maxUploadBytes = 10;
    try {
      const put = await putBlob(token, space.id, 'eleven bytes');
      expect(put.status).toBe(413);
      expect(put.json.error.code).toBe('too_large');
    } finally {
      config.maxUploadBytes = limit;
    }
    expect(await blobStore().get(sha('eleven bytes'))).toBeNull();
  });

  it('makes another workspace send the bytes once before it may use a blob', async () => {
    const a = await signIn('blob-d');
    const b = await signIn('blob-e');
    const spaceA = await makeSpace(a.token, 'blob-d');
    const spaceB = await makeSpace(b.token, 'blob-e');
    await putBlob(a.token, spaceA.id, 'shared secret');
    const files = fileList({ 'secret.txt': 'shared secret' });
    expect((await plan(b.token, spaceB.id, files)).json.missing).toEqual([sha('shared secret')]);
    expect((await commit(b.token, spaceB.id, files)).status).toBe(409);
    expect((await putBlob(b.token, spaceB.id, 'not the secret', sha('shared secret'))).status).toBe(400);
    expect((await putBlob(b.token, spaceB.id, 'shared secret')).status).toBe(204);
    expect((await commit(b.token, spaceB.id, files)).status).toBe(200);
  });
});

describe('commit', () => {
  it('creates version 1 with its diff and url, and nothing when nothing changed', async () => {
    const { token, user } = await signIn('commit-a', 'cli', 'Commit A');
    const space = await makeSpace(token, 'commit-a');
    const { commit: first } = await push(token, space.id, { 'index.html': 'x', 'css/site.css': 'y' }, 'First');
    expect(first).toEqual({
      version: { number: 1, message: 'First', author: { id: user.id, handle: 'commit-a', name: 'Commit A' }, createdAt: expect.any(Number), fileCount: 2, bytes: 2 },
      diff: { added: ['css/site.css', 'index.html'], changed: [], removed: [], unchanged: 0 },
      url: space.url,
    });
    const same = await commit(token, space.id, fileList({ 'index.html': 'x', 'css/site.css': 'y' }));
    expect(same.status).toBe(200);
    expect(same.json.version).toBeNull();
    expect(same.json.diff).toEqual({ added: [], changed: [], removed: [], unchanged: 2 });
  });

  it('answers 409 when a listed blob is missing, and creates nothing', async () => {
    const { token } = await signIn('commit-b');
    const space = await makeSpace(token, 'commit-b');
    const chunksBefore = await db.manifestChunk.count();
    const { status, json } = await commit(token, space.id, fileList({ 'index.html': 'never uploaded' }));
    expect(status).toBe(409);
    expect(json.error.message).toContain('index.html');
    expect(json.error.message).toContain('Plan again');
    expect(await db.version.count({ where: { spaceId: space.id } })).toBe(0);
    expect((await db.space.findUniqueOrThrow({ where: { id: space.id } })).latestVersion).toBe(0);
    expect(await db.manifestChunk.count()).toBe(chunksBefore);
  });

  it('numbers racing commits one after the other, each a consistent snapshot', async () => {
    const { token } = await signIn('commit-c');
    const space = await makeSpace(token, 'commit-c');
    await putBlob(token, space.id, 'left');
    await putBlob(token, space.id, 'right');
    const [left, right] = await Promise.all([
      commit(token, space.id, fileList({ 'index.html': 'left' })),
      commit(token, space.id, fileList({ 'index.html': 'right', 'extra.txt': 'right' })),
    ]);
    expect([left.status, right.status]).toEqual([200, 200]);
    const numbers = [left.json.version.number, right.json.version.number].sort();
    expect(numbers).toEqual([1, 2]);
    const second = left.json.version.number === 2 ? left : right;
    const detail = await call(versionRoute, 'GET', '', { token, params: { id: space.id, n: '2' } });
    expect(detail.json.diff).toEqual(second.json.diff);
    expect(detail.json.files.map((f: { path: string }) => f.path)).toEqual(second === right ? ['extra.txt', 'index.html'] : ['index.html']);
    expect((await db.space.findUniqueOrThrow({ where: { id: space.id } })).latestVersion).toBe(2);
  });

  it('compares content after a restore: the types a version lists are the ones guessed, so nothing else looks changed', async () => {
    const { token } = await signIn('restore-diff');
    const space = await makeSpace(token, 'restore-diff');
    const site = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`page-${i}.html`, `page ${i}`]));
    const v2 = { ...site, 'page-0.html': 'new 0', 'page-1.html': 'new 1', 'style.css': 'h1{}' };
    await push(token, space.id, site);
    await push(token, space.id, v2);
    // Restore version 1 as the web app does: its files list, types included, committed again.
    const one = await call(versionRoute, 'GET', '', { token, params: { id: space.id, n: '1' } });
    const files = one.json.files.map((f: { path: string; sha256: string; size: number; contentType: string }) => ({ path: f.path, sha256: f.sha256, size: f.size, contentType: f.contentType }));
    expect(files[0].contentType).toBe('text/html; charset=utf-8');
    const restored = await commit(token, space.id, files);
    expect(restored.json.diff).toMatchObject({ added: [], changed: ['page-0.html', 'page-1.html'], removed: ['style.css'], unchanged: 8 });
    // Pushing version 2's files again (no types, as the CLI does) changes just those again.
    const again = await push(token, space.id, v2);
    expect(again.commit.diff).toMatchObject({ added: ['style.css'], changed: ['page-0.html', 'page-1.html'], removed: [], unchanged: 8 });
    const detail = await call(versionRoute, 'GET', '', { token, params: { id: space.id, n: '3' } });
    expect(detail.json.diff.unchanged).toBe(8);
  });

  it('shares unchanged files: a one-file change of 2,000 files stores one new manifest chunk', { timeout: 60_000 }, async () => {
    const { token } = await signIn('commit-d');
    const space = await makeSpace(token, 'commit-d');
    const files = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`pages/${i}.html`, `page ${i}`]));
    await push(token, space.id, files);
    const chunks = await db.manifestChunk.count();
    const blobs = await db.workspaceBlob.count({ where: { workspaceId: space.workspace.id } });
    const { plan: second, commit: result } = await push(token, space.id, { ...files, 'pages/1000.html': 'changed' });
    expect(second.missing).toEqual([sha('changed')]);
    expect(result.diff).toEqual({ added: [], changed: ['pages/1000.html'], removed: [], unchanged: 1999 });
    expect(await db.manifestChunk.count()).toBe(chunks + 1);
    expect(await db.workspaceBlob.count({ where: { workspaceId: space.workspace.id } })).toBe(blobs + 1);
  });
});

describe('content types of pushed files', () => {
  it('refuses a content type that is not a media type with 400 naming the field, in the plan and the commit, and stores nothing', async () => {
    const { token } = await signIn('ctype-a');
    const space = await makeSpace(token, 'ctype-a');
    await putBlob(token, space.id, '<p>x</p>');
    for (const contentType of [
      'text/html;\u0000',
      'text/html\r\nSet-Cookie: a=b',
      'text/html; charset=utf-8\u0085',
      'text/html garbage',
      'text/',
      '/html',
      'text/html;',
      'text/html; charset',
      'text/html; charset="utf-8',
      'text/html; charset=a"b',
      'text/h\u00e9ml',
      'text/html; name="caf\u00e9"',
      ' text/html',
      `text/${'x'.repeat(260)}`,
    ]) {
      const files = [{ path: 'index.html', sha256: sha('<p>x</p>'), size: 8, contentType }];
      for (const answer of [await plan(token, space.id, files), await commit(token, space.id, files)]) {
        expect(answer.status, JSON.stringify(contentType)).toBe(400);
        expect(answer.json.error.code).toBe('bad_request');
        expect(answer.json.error.message, JSON.stringify(contentType)).toMatch(/^body\.files\.0\.contentType: /);
      }
    }
    expect(await db.version.count({ where: { spaceId: space.id } })).toBe(0);
  });

  it('keeps a media type with parameters and serves it back as given', async () => {
    const { token } = await signIn('ctype-b');
    const space = await makeSpace(token, 'ctype-b');
    const types = {
      'index.html': 'text/html; charset=utf-8',
      'old.txt': 'text/plain;charset="ISO-8859-1"',
      'api.json': 'application/vnd.api+json',
      'feed': 'multipart/x-mixed-replace; boundary="a b\\"c"; x-y=1',
    };
    const files = { 'index.html': '<p>hi</p>', 'old.txt': 'old', 'api.json': '{}', feed: '--' };
    await push(token, space.id, files, 'typed', types);
    for (const [name, type] of Object.entries(types)) {
      const read = await call(fileRoute, 'GET', '', { token, params: { id: space.id, path: [name] } });
      expect(read.status, name).toBe(200);
      expect(read.json.file.contentType).toBe(type);
      const download = await call(downloadRoute, 'GET', '', { token, params: { id: space.id, path: [name] } });
      expect(download.status, name).toBe(200);
      expect(download.headers.get('content-type')).toBe(type);
      expect(download.text).toBe(files[name as keyof typeof files]);
    }
  });
});

describe('reading versions and files', () => {
  async function published() {
    const { token } = await signIn(`read-${Math.random().toString(36).slice(2, 8)}`);
    const me = (await db.user.findFirstOrThrow({ orderBy: { createdAt: 'desc' } })).handle;
    const space = await makeSpace(token, me);
    await push(token, space.id, { 'index.html': '<p>v1</p>', 'notes.md': '# Notes', 'gone.txt': 'bye' }, 'one');
    await push(token, space.id, { 'index.html': '<p>v2</p>', 'notes.md': '# Notes', 'logo.png': new Uint8Array([137, 80, 78, 71, 0, 1, 2]) }, 'two');
    return { token, space };
  }

  it('lists versions newest first and shows a version with its files and diff', async () => {
    const { token, space } = await published();
    const list = await call(versionsRoute, 'GET', '', { token, params: { id: space.id } });
    expect(list.json.versions.map((v: { number: number; message: string }) => [v.number, v.message])).toEqual([[2, 'two'], [1, 'one']]);
    const latest = await call(versionRoute, 'GET', '', { token, params: { id: space.id, n: 'latest' } });
    expect(latest.status).toBe(200);
    expect(latest.json.version.number).toBe(2);
    expect(latest.json.files).toEqual([
      { path: 'index.html', sha256: sha('<p>v2</p>'), size: 9, contentType: 'text/html; charset=utf-8' },
      { path: 'logo.png', sha256: expect.any(String), size: 7, contentType: 'image/png' },
      { path: 'notes.md', sha256: sha('# Notes'), size: 7, contentType: 'text/markdown; charset=utf-8' },
    ]);
    expect(latest.json.diff).toEqual({ added: ['logo.png'], changed: ['index.html'], removed: ['gone.txt'], unchanged: 1 });
    const first = await call(versionRoute, 'GET', '', { token, params: { id: space.id, n: '1' } });
    expect(first.json.diff.added).toEqual(['gone.txt', 'index.html', 'notes.md']);
    expect((await call(versionRoute, 'GET', '', { token, params: { id: space.id, n: '3' } })).status).toBe(404);
    expect((await call(versionRoute, 'GET', '', { token, params: { id: space.id, n: 'abc' } })).status).toBe(400);
  });

  it('reads text files, says a binary file is not text, and reads older versions with v', async () => {
    const { token, space } = await published();
    const read = (path: string, v?: string) =>
      call(fileRoute, 'GET', `/v1/spaces/${space.id}/files/${path}${v ? `?v=${v}` : ''}`, { token, params: { id: space.id, path: segments(path) } });
    const text = await read('index.html');
    expect(text.json).toEqual({
      versionNumber: 2,
      file: { path: 'index.html', sha256: sha('<p>v2</p>'), size: 9, contentType: 'text/html; charset=utf-8', text: true, truncated: false },
      content: '<p>v2</p>',
      rawUrl: `${space.url}index.html?v=2`,
    });
    const binary = await read('logo.png');
    expect(binary.json.file.text).toBe(false);
    expect(binary.json.content).toBe('');
    expect((await read('index.html', '1')).json.content).toBe('<p>v1</p>');
    expect((await read('gone.txt')).status).toBe(404);
    expect((await read('gone.txt', '1')).json.content).toBe('bye');
    expect((await read('index.html', '9')).status).toBe(404);
    expect((await read('../x')).status).toBe(400);
  });

  it('cuts text over 1 MiB and says so', async () => {
    const { token } = await signIn('read-long');
    const space = await makeSpace(token, 'read-long');
    const long = `${'é'.repeat(600_000)}`;
    await push(token, space.id, { 'long.txt': long });
    const { json } = await call(fileRoute, 'GET', '', { token, params: { id: space.id, path: ['long.txt'] } });
    expect(json.file.truncated).toBe(true);
    expect(json.content).toBe('é'.repeat(524_288));
  });

  it("tells a file's history: added, changed, removed", async () => {
    const { token, space } = await published();
    await push(token, space.id, { 'gone.txt': 'back' }, 'three');
    const history = await call(historyRoute, 'GET', '', { token, params: { id: space.id, path: ['gone.txt'] } });
    expect(history.json.entries.map((e: { version: number; change: string; sha256: string | null }) => [e.version, e.change, e.sha256])).toEqual([
      [3, 'added', sha('back')],
      [2, 'removed', null],
      [1, 'added', sha('bye')],
    ]);
    const index = await call(historyRoute, 'GET', '', { token, params: { id: space.id, path: ['index.html'] } });
    expect(index.json.entries.map((e: { change: string }) => e.change)).toEqual(['removed', 'changed', 'added']);
    expect((await call(historyRoute, 'GET', '', { token, params: { id: space.id, path: ['never.txt'] } })).status).toBe(404);
  });

  it('compares any two versions by content, either way (the latest and the one before by default), and hides a members-only space from outsiders (404)', async () => {
    const { token } = await signIn('compare-a');
    const space = await makeSpace(token, 'compare-a', { visibility: 'members' });
    const first = { 'index.html': '<p>v1</p>', 'notes.md': '# Notes', 'gone.txt': 'bye' };
    await push(token, space.id, first, 'one');
    await push(token, space.id, { 'index.html': '<p>v2</p>', 'notes.md': '# Notes', 'logo.png': new Uint8Array([137, 80, 78, 71]) }, 'two');
    // Version 3 restores version 1's files: compared with version 1 nothing changed.
    await push(token, space.id, first, 'three');
    const compare = (base: string, head: string, as = token) =>
      call(compareRoute, 'GET', `/v1/spaces/${space.id}/compare?base=${base}&head=${head}`, { token: as, params: { id: space.id } });
    const forward = await compare('1', '2');
    expect(forward.status).toBe(200);
    expect([forward.json.base.number, forward.json.head.number, forward.json.head.message]).toEqual([1, 2, 'two']);
    expect(forward.json.diff).toEqual({ added: ['logo.png'], changed: ['index.html'], removed: ['gone.txt'], unchanged: 1 });
    expect((await compare('2', '1')).json.diff).toEqual({ added: ['gone.txt'], changed: ['index.html'], removed: ['logo.png'], unchanged: 1 });
    expect((await compare('1', '3')).json.diff).toEqual({ added: [], changed: [], removed: [], unchanged: 3 });
    expect((await compare('1', '4')).json.error).toEqual({ code: 'not_found', message: 'No version 4 in this space.' });
    expect((await compare('0', '1')).status).toBe(400);
    // Without head, the latest; without base, the version before head.
    const latest = await call(compareRoute, 'GET', `/v1/spaces/${space.id}/compare?base=1`, { token, params: { id: space.id } });
    expect([latest.json.base.number, latest.json.head.number]).toEqual([1, 3]);
    const before = await call(compareRoute, 'GET', `/v1/spaces/${space.id}/compare?head=2`, { token, params: { id: space.id } });
    expect([before.json.base.number, before.json.head.number]).toEqual([1, 2]);
    const defaults = await call(compareRoute, 'GET', `/v1/spaces/${space.id}/compare`, { token, params: { id: space.id } });
    expect([defaults.json.base.number, defaults.json.head.number, defaults.json.diff.changed]).toEqual([2, 3, ['index.html']]);
    // A members-only space is not there for someone outside its workspace, nor for someone signed out.
    const outsider = await signIn('compare-b');
    expect((await compare('1', '2', outsider.token)).status).toBe(404);
    expect((await compare('1', '2', '')).status).toBe(404);
  });

  it('downloads a file as an attachment that cannot run', async () => {
    const { token, space } = await published();
    const download = await call(downloadRoute, 'GET', `/v1/spaces/${space.id}/download/index.html?v=1`, { token, params: { id: space.id, path: ['index.html'] } });
    expect(download.status).toBe(200);
    expect(download.text).toBe('<p>v1</p>');
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="index.html"; filename*=UTF-8''index.html`);
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('content-security-policy')).toContain('sandbox');
    expect(download.headers.get('etag')).toBe(`"${sha('<p>v1</p>')}"`);
    const missing = await call(downloadRoute, 'GET', '', { token, params: { id: space.id, path: ['nope.txt'] } });
    expect(missing.status).toBe(404);
  });

  it('gives a 5-minute /dl link that works without signing in, then is gone', async () => {
    const { token, space } = await published();
    const link = await call(downloadLinkRoute, 'GET', '', { token, params: { id: space.id, path: ['notes.md'] } });
    expect(link.status).toBe(200);
    expect(link.json.url).toMatch(/^http:\/\/localhost:3000\/dl\/atrt_[\w-]{43}$/);
    expect(link.json.expiresAt - Date.now()).toBeGreaterThan(4.9 * 60 * 1000);
    expect(link.json.expiresAt - Date.now()).toBeLessThanOrEqual(5 * 60 * 1000);
    const ticket = link.json.url.split('/dl/')[1];
    const open = () => download(ticket);
    const got = await open();
    expect(got.status).toBe(200);
    expect(got.text).toBe('# Notes');
    expect(got.headers.get('content-disposition')).toContain('attachment; filename="notes.md"');
    await db.downloadTicket.update({ where: { hash: hashSecret(ticket) }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect((await open()).status).toBe(410);
    expect((await download('atrt_unknown')).status).toBe(404);
  });
});
