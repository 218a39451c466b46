// Published files over real sockets as browsers and players ask for them:
// brotli or gzip by Accept-Encoding, and single byte ranges, on the site's
// own host (Node's response written directly) and on the app's origin
// (/s/<id>/ without a content domain: the Fetch Response path).
import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { config } from '@/lib/config.ts';
import { siteUrl } from '@/lib/spaces/hosts.ts';
import { GET as downloadLinkRoute } from '@/app/v1/spaces/[id]/download-link/[...path]/route.ts';
import { call, signIn } from '../helpers.ts';
import { onPort, rawBytes as get } from '../http/raw.ts';
import { useFrontServer } from '../server.ts';
import { makeSpace, push, sha } from './fixtures.ts';

const server = useFrontServer();


/** One request on a fresh connection; the body as the bytes that came (nothing decoded). */

/** About `size` bytes of a stylesheet, script or page: text with the repetition real ones have. */
function text(size: number, line: (i: number) => string): string {
  let out = '';
  for (let i = 0; out.length < size; i++) out += line(i);
  return out;
}
const style = text(99_000, (i) => `.card-${i} { margin: ${i % 13}px ${i % 7}px; color: #${((i * 2654435761) % 0xffffff).toString(16).padStart(6, '0')}; }\n`);
const script = text(68_000, (i) => `export function step${i}(state) { return { ...state, count: state.count + ${i % 10} }; }\n`);
const page = `<!doctype html><title>Home</title>\n${text(48_000, (i) => `<p class="card-${i % 40}">Paragraph ${i} of a page people read.</p>\n`)}`;
const video = randomBytes(2 * 1024 * 1024);
const photo = randomBytes(20_000);
const files = { 'index.html': page, 'style.css': style, 'app.js': script, 'tiny.css': 'h1{color:red}', 'clip.mp4': video, 'photo.png': photo, 'font.woff2': randomBytes(4_000) };

let origin = '';
let owner: { token: string };
let spaceId = '';
beforeAll(async () => {
  owner = await signIn('bytes-owner', 'web');
  const space = await makeSpace(owner.token, 'bytes-owner');
  await push(owner.token, space.id, files);
  spaceId = space.id;
  origin = onPort(siteUrl(space.id), server.origin);
});

describe('compressed answers', () => {
  it('sends stylesheets, scripts and pages as brotli that decodes to the exact bytes, each coding with its own ETag', async () => {
    for (const [path, content] of [['/style.css', style], ['/app.js', script], ['/', page]] as const) {
      const answer = await get(origin, path, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe('br');
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(answer.headers.etag).toBe(`"${sha(content)}-br"`);
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      expect(answer.body.length).toBeLessThan(content.length / 4);
      expect(brotliDecompressSync(answer.body).equals(Buffer.from(content))).toBe(true);
    }
    const gzipped = await get(origin, '/style.css', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.etag).toBe(`"${sha(style)}-gzip"`);
    expect(gunzipSync(gzipped.body).toString()).toBe(style);
  });

  it('weighs Accept-Encoding: q-values, *, identity, and nothing asked', async () => {
    const codingFor = async (accept: string | null) => {
      const answer = await get(origin, '/style.css', accept === null ? {} : { 'accept-encoding': accept });
      expect(answer.headers.vary).toBe('Accept-Encoding');
      return answer.headers['content-encoding'] ?? 'identity';
    };
    expect(await codingFor(null)).toBe('identity');
    expect(await codingFor('identity')).toBe('identity');
    expect(await codingFor('br;q=0, gzip')).toBe('gzip');
    expect(await codingFor('gzip;q=0.8, br;q=0.5')).toBe('gzip');
    expect(await codingFor('gzip;q=0.5, br;q=0.5')).toBe('br');
    expect(await codingFor('*')).toBe('br');
    expect(await codingFor('*;q=0.5, br;q=0')).toBe('gzip');
    expect(await codingFor('*;q=0')).toBe('identity');
    expect(await codingFor('BR')).toBe('br');
    expect(await codingFor('x-gzip')).toBe('gzip');
  });

  it('sends images, video, woff2 and files under 1 KB as stored, without Vary', async () => {
    for (const path of ['/photo.png', '/clip.mp4', '/font.woff2', '/tiny.css']) {
      const answer = await get(origin, path, { 'accept-encoding': 'br, gzip' }, 'HEAD');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers.vary).toBeUndefined();
    }
  });

  it('answers 304 to the encoded ETag, and the encoded bytes to a client holding the plain ones', async () => {
    const etag = `"${sha(style)}-br"`;
    const again = await get(origin, '/style.css', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers.vary).toBe('Accept-Encoding');
    expect(again.body.length).toBe(0);
    expect((await get(origin, '/style.css', { 'accept-encoding': 'br', 'if-none-match': `W/${etag}` })).status).toBe(304);
    const other = await get(origin, '/style.css', { 'accept-encoding': 'br', 'if-none-match': `"${sha(style)}"` });
    expect(other.status).toBe(200);
    expect(other.headers['content-encoding']).toBe('br');
  });

  it('gives HEAD the headers GET sends, with the compressed length', async () => {
    const full = await get(origin, '/app.js', { 'accept-encoding': 'br' });
    const head = await get(origin, '/app.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.body.length).toBe(0);
    for (const name of ['content-encoding', 'content-length', 'etag', 'vary', 'content-type', 'cache-control', 'accept-ranges']) expect(head.headers[name]).toBe(full.headers[name]);
  });

  it('compresses a file once for many visitors asking at the same time, all of them the same bytes', async () => {
    const owner = await signIn('bytes-racer', 'web');
    const space = await makeSpace(owner.token, 'bytes-racer');
    const fresh = text(120_000, (i) => `.race-${i} { padding: ${i}px; }\n`);
    await push(owner.token, space.id, { 'race.css': fresh });
    const site = onPort(siteUrl(space.id), server.origin);
    const answers = await Promise.all(Array.from({ length: 20 }, () => get(site, '/race.css', { 'accept-encoding': 'br' })));
    const bodies = new Set(answers.map((a) => a.body.toString('base64')));
    expect(bodies.size).toBe(1);
    expect(brotliDecompressSync(answers[0].body).toString()).toBe(fresh);
  });
});

describe('byte ranges', () => {
  const size = video.length;

  it('answers one range with 206 and exactly those bytes: a-b, a- and -n', async () => {
    const whole = await get(origin, '/clip.mp4');
    expect(whole.status).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.body.equals(video)).toBe(true);
    for (const [range, start, end] of [['bytes=1000-1999', 1000, 1999], [`bytes=${size - 100}-`, size - 100, size - 1], ['bytes=-500', size - 500, size - 1], ['bytes=0-99999999999', 0, size - 1], [`bytes=-${size * 2}`, 0, size - 1], ['bytes=0-0', 0, 0]] as const) {
      const part = await get(origin, '/clip.mp4', { range });
      expect(part.status, range).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
      expect(Number(part.headers['content-length'])).toBe(end - start + 1);
      expect(part.body.equals(video.subarray(start, end + 1)), range).toBe(true);
    }
    // A small file comes from memory, the same way.
    const small = await get(origin, '/tiny.css', { range: 'bytes=2-4' });
    expect(small.status).toBe(206);
    expect(small.body.toString()).toBe('{co');
  });

  it('answers 416 with the size to a range past the end', async () => {
    for (const range of [`bytes=${size}-`, `bytes=${size + 5}-${size + 10}`, 'bytes=-0']) {
      const refused = await get(origin, '/clip.mp4', { range });
      expect(refused.status, range).toBe(416);
      expect(refused.headers['content-range']).toBe(`bytes */${size}`);
      expect(refused.headers['cache-control']).toBe('no-store');
      expect(refused.body.toString()).toContain(`${size} bytes`);
    }
  });

  it('honours If-Range with the current ETag only; a stale tag or a date gets the whole file', async () => {
    const etag = `"${sha(video)}"`;
    expect((await get(origin, '/clip.mp4', { range: 'bytes=0-9', 'if-range': etag })).status).toBe(206);
    for (const ifRange of ['"stale"', `W/${etag}`, new Date().toUTCString()]) {
      const whole = await get(origin, '/clip.mp4', { range: 'bytes=0-9', 'if-range': ifRange });
      expect(whole.status, ifRange).toBe(200);
      expect(whole.body.length).toBe(size);
    }
  });

  it('answers ranges of compressible files from the stored bytes, and 304 before any range', async () => {
    const part = await get(origin, '/style.css', { range: 'bytes=100-199', 'accept-encoding': 'br, gzip' });
    expect(part.status).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.headers.vary).toBe('Accept-Encoding');
    expect(part.body.toString()).toBe(style.slice(100, 200));
    expect((await get(origin, '/style.css', { range: 'bytes=100-199', 'if-none-match': `"${sha(style)}"` })).status).toBe(304);
  });

  it('gives HEAD with a range the headers of the 206', async () => {
    const head = await get(origin, '/clip.mp4', { range: 'bytes=10-19' }, 'HEAD');
    expect(head.status).toBe(206);
    expect(head.headers['content-range']).toBe(`bytes 10-19/${size}`);
    expect(head.headers['content-length']).toBe('10');
    expect(head.body.length).toBe(0);
  });

  it('never fails on a malformed or hostile Range or Accept-Encoding', async () => {
    const thousand = `bytes=${Array.from({ length: 1000 }, (_, i) => `${i * 10}-${i * 10 + 5}`).join(',')}`;
    const cases: Array<[Record<string, string>, number]> = [
      [{ range: 'bytes=abc' }, 200],
      [{ range: 'bytes=5-2' }, 200],
      [{ range: 'bytes=-' }, 200],
      [{ range: 'bytes=--1' }, 200],
      [{ range: 'bytes=0-1-2' }, 200],
      [{ range: 'bytes= 0-1' }, 200],
      [{ range: 'bytes=1e3-2e3' }, 200],
      [{ range: 'items=0-1' }, 200],
      [{ range: 'bytes=0-1,5-9' }, 200],
      [{ range: thousand }, 200],
      [{ range: `bytes=${'9'.repeat(4000)}-` }, 416],
      [{ range: `bytes=0-${'9'.repeat(4000)}` }, 206],
      [{ range: `bytes=-${'9'.repeat(4000)}` }, 206],
      [{ range: 'bytes=99999999999999999999999-99999999999999999999999' }, 416],
      [{ 'accept-encoding': 'br;q=abc, gzip;q=-1' }, 200],
      [{ 'accept-encoding': `${'x, '.repeat(3000)}br;q=1e400` }, 200],
      [{ 'accept-encoding': ';;;,,,q=1;br' }, 200],
    ];
    const answers = await Promise.all(cases.map(([headers]) => get(origin, '/clip.mp4', headers)));
    answers.forEach((answer, i) => expect(answer.status, JSON.stringify(cases[i][0]).slice(0, 80)).toBe(cases[i][1]));
    for (const answer of answers.filter((a) => a.status === 200)) expect(answer.body.equals(video)).toBe(true);
    const styled = await Promise.all(cases.map(([headers]) => get(origin, '/style.css', headers)));
    for (const answer of styled) expect([200, 206, 416]).toContain(answer.status);
  });
});

describe('download links', () => {
  it('resume with a range and come compressed', async () => {
    const link = await call(downloadLinkRoute, 'GET', '', { token: owner.token, params: { id: spaceId, path: ['clip.mp4'] } });
    const path = new URL(link.json.url).pathname;
    const rest = await get(server.origin, path, { range: `bytes=${video.length - 1000}-` });
    expect(rest.status).toBe(206);
    expect(rest.headers['content-disposition']).toContain('attachment');
    expect(rest.body.equals(video.subarray(video.length - 1000))).toBe(true);
    const sheet = await call(downloadLinkRoute, 'GET', '', { token: owner.token, params: { id: spaceId, path: ['style.css'] } });
    const gzipped = await get(server.origin, new URL(sheet.json.url).pathname, { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body).toString()).toBe(style);
  });
});

describe('on the app origin without a content domain, and for members', () => {
  const saved = { ...config };
  afterEach(() => Object.assign(config, saved));

  it('compresses and ranges the same way, and keeps members-only content private', async () => {
    Object.assign(config, { contentDomain: null });
    const owner = await signIn('bytes-member', 'web');
    const space = await makeSpace(owner.token, 'bytes-member', { visibility: 'members' });
    await push(owner.token, space.id, { 'style.css': style, 'clip.mp4': video });
    const session = { cookie: `atrium_session=${owner.token}` };
    const compressed = await get(server.origin, `/s/${space.id}/style.css`, { ...session, 'accept-encoding': 'br' });
    expect(compressed.status).toBe(200);
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers.vary).toBe('Accept-Encoding');
    expect(compressed.headers['cache-control']).toBe('private, no-cache');
    expect(brotliDecompressSync(compressed.body).toString()).toBe(style);
    const part = await get(server.origin, `/s/${space.id}/clip.mp4`, { ...session, range: 'bytes=1000-1999' });
    expect(part.status).toBe(206);
    expect(part.headers['cache-control']).toBe('private, no-cache');
    expect(part.body.equals(video.subarray(1000, 2000))).toBe(true);
    expect((await get(server.origin, `/s/${space.id}/clip.mp4`, { range: 'bytes=1000-1999' })).status).toBe(404);
  });
});
