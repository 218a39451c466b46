// The typed client against the real front server: what the CLI and the web app
// meet, sockets, headers and all.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AtriumApiError, AtriumNetworkError, buildPath, createClient } from '@/lib/client/index.ts';
import { accountsApi } from '@/lib/schemas/accounts.ts';
import { spacesApi } from '@/lib/schemas/spaces.ts';
import { signIn } from '../helpers.ts';
import { useFrontServer } from '../server.ts';

const server = useFrontServer();
const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

async function signedIn(handle: string) {
  const { token } = await signIn(handle);
  return createClient({ baseUrl: server.origin, token });
}

describe('the typed client', () => {
  it('builds paths from the endpoint table, encoding each segment', () => {
    expect(buildPath(spacesApi.file.path, { id: 'sp 1', path: ['docs', 'a b?.md'] })).toBe('/v1/spaces/sp%201/files/docs/a%20b%3F.md');
    expect(buildPath(spacesApi.get.path, { id: '../x' })).toBe('/v1/spaces/..%2Fx');
    expect(() => buildPath(spacesApi.get.path, {})).toThrow(/id/);
  });

  it('makes a typed call: body in, typed answer out', async () => {
    const client = await signedIn('client-typed');
    const me = await client.call(accountsApi.me);
    expect(me.user.handle).toBe('client-typed');
    const space = await client.call(spacesApi.create, { body: { workspace: 'client-typed', name: 'Typed' } });
    expect(space.visibility).toBe('public');
    const fetched = await client.call(spacesApi.get, { params: { id: space.id } });
    expect(fetched.name).toBe('Typed');
    // The compiler holds calls to the schemas (tsc runs over the tests):
    // @ts-expect-error: a body field the endpoint does not define
    void (() => client.call(spacesApi.create, { body: { workspace: 'x', nme: 'y' } }));
    // @ts-expect-error: params are required where the path has them
    void (() => client.call(spacesApi.get));
  });

  it('throws one error class with the code, message, status and request id of a failure', async () => {
    const client = await signedIn('client-errors');
    const failure = await client
      .call(spacesApi.get, { params: { id: 'sp_nothing' }, headers: { 'x-request-id': 'trace-client-1' } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AtriumApiError);
    expect(failure).toMatchObject({ status: 404, code: 'not_found', requestId: 'trace-client-1' });
    expect((failure as Error).message).toMatch(/space/i);

    const anonymous = createClient({ baseUrl: server.origin });
    const refused = await anonymous.call(accountsApi.me).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 401, code: 'unauthorized', requestId: expect.any(String) });

    const invalid = await client.call(spacesApi.create, { body: { workspace: 'client-errors', name: '' } }).catch((error: unknown) => error);
    expect(invalid).toMatchObject({ status: 400, code: 'bad_request', message: expect.stringMatching(/^body\.name/) });
  });

  it('uploads raw bytes (blob and upload) and downloads them back', async () => {
    const client = await signedIn('client-bytes');
    const space = await client.call(spacesApi.create, { body: { workspace: 'client-bytes', name: 'Bytes' } });
    const bytes = Buffer.from('<h1>hello from the client</h1>');
    const params = { id: space.id };

    const plan = await client.call(spacesApi.plan, { params, body: { files: [{ path: 'site/index.html', sha256: sha(bytes), size: bytes.length }] } });
    expect(plan.missing).toEqual([sha(bytes)]);
    // A stream body, made afresh for each attempt, with its length.
    await client.call(spacesApi.putBlob, {
      params: { id: space.id, sha256: sha(bytes) },
      raw: { body: () => new Blob([bytes]).stream(), length: bytes.length },
    });
    const commit = await client.call(spacesApi.commit, { params, body: { files: [{ path: 'site/index.html', sha256: sha(bytes), size: bytes.length }], message: 'first' } });
    expect(commit.version?.number).toBe(1);

    const download = await client.bytes(spacesApi.download, { params: { id: space.id, path: ['site', 'index.html'] }, query: { v: '1' } });
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);

    const uploaded = await client.call(spacesApi.upload, { params, query: { name: 'notes.txt' }, raw: { body: 'some notes', length: 10, contentType: 'text/plain' } });
    expect(uploaded).toMatchObject({ name: 'notes.txt', size: 10 });
    const raw = await client.bytes(spacesApi.uploadRaw, { params: { id: space.id, uploadId: uploaded.id } });
    expect(await raw.text()).toBe('some notes');

    const wrong = await client
      .call(spacesApi.putBlob, { params: { id: space.id, sha256: sha('other') }, raw: { body: bytes, length: bytes.length } })
      .catch((error: unknown) => error);
    expect(wrong).toMatchObject({ status: 400 });
    expect(await client.call(spacesApi.deleteUpload, { params: { id: space.id, uploadId: uploaded.id } })).toBeUndefined();
  });

  it('tells a network failure apart from an answer', async () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:9', sleep: async () => {} });
    const failure = await client.call(accountsApi.me).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AtriumNetworkError);
    expect(failure).not.toBeInstanceOf(AtriumApiError);
  });

  it('retries 503 after its Retry-After and 5xx of idempotent calls, but not a failed POST', async () => {
    const waits: number[] = [];
    const answers = [new Response('{"error":{"code":"unavailable","message":"busy"}}', { status: 503, headers: { 'retry-after': '2' } }), new Response('{"error":{"code":"internal_error","message":"x"}}', { status: 500 }), Response.json({ user: { handle: 'a' } })];
    let calls = 0;
    const client = createClient({ baseUrl: 'http://example.invalid', fetch: async () => answers[calls++], sleep: async (ms) => void waits.push(ms) });
    const me = await client.call(accountsApi.me);
    expect(me.user.handle).toBe('a');
    expect(calls).toBe(3);
    expect(waits[0]).toBe(2000);

    let posts = 0;
    const once = createClient({ baseUrl: 'http://example.invalid', fetch: async () => (posts++, new Response('{"error":{"code":"internal_error","message":"x"}}', { status: 500 })), sleep: async () => {} });
    await expect(once.call(spacesApi.create, { body: { workspace: 'w', name: 'n' } })).rejects.toMatchObject({ status: 500, code: 'internal_error' });
    expect(posts).toBe(1);
  });
});
