// Named aliases of a space's versions (previews), served through the real front
// server on hosts of their own: pushed to, moved at once, removed at once.
import { afterEach, describe, expect, it } from 'vitest';
import { config } from '@/lib/config.ts';
import { aliasUrl, siteUrl } from '@/lib/spaces/hosts.ts';
import { signIn } from '../helpers.ts';
import { onPort, rawRequest } from '../http/raw.ts';
import { useFrontServer } from '../server.ts';
import { fileList, makeSpace, push, putBlob } from './fixtures.ts';

const server = useFrontServer();
const api = (token: string, method: string, path: string, body?: unknown) =>
  rawRequest(server.origin, method, path, { headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });

describe('aliases', () => {
  const saved = { ...config };
  afterEach(() => Object.assign(config, saved));

  it('a commit points an alias at its version, served on the alias host; moves and removals take effect at once', async () => {
    const owner = await signIn('alias-owner', 'web');
    const space = await makeSpace(owner.token, 'alias-owner');
    await push(owner.token, space.id, { 'index.html': 'one' });
    // The workspace's webhooks hear of each move (the receiver is never reached here: the delivery is queued).
    config.webhooksAllowPrivate = true;
    const hook = await api(owner.token, 'POST', `/v1/workspaces/alias-owner/webhooks`, { url: 'http://127.0.0.1:9/hook', events: ['alias.moved'] });
    expect(hook.status).toBe(200);
    const files = fileList({ 'index.html': 'two' });
    await putBlob(owner.token, space.id, 'two');
    const committed = await api(owner.token, 'POST', `/v1/spaces/${space.id}/versions`, { files, alias: 'pr-42' });
    expect(committed.status).toBe(200);
    expect(committed.json.alias).toMatchObject({ name: 'pr-42', version: 2, url: aliasUrl(space.id, 'pr-42'), updatedBy: { handle: 'alias-owner' } });
    expect(aliasUrl(space.id, 'pr-42')).toBe(`http://pr-42--${space.id.replace('_', '-')}.localhost:3000/`);
    const preview = onPort(aliasUrl(space.id, 'pr-42'), server.origin);
    expect((await rawRequest(preview, 'GET', '/')).text).toBe('two');

    // Moving it is one statement; the next request sees it.
    const moved = await api(owner.token, 'PUT', `/v1/spaces/${space.id}/aliases/pr-42`, { version: 1 });
    expect(moved.json).toMatchObject({ name: 'pr-42', version: 1 });
    expect((await rawRequest(preview, 'GET', '/')).text).toBe('one');
    expect((await rawRequest(onPort(siteUrl(space.id), server.origin), 'GET', '/')).text).toBe('two');
    // Nothing changed, but the alias still follows the commit: to the latest version.
    const same = await api(owner.token, 'POST', `/v1/spaces/${space.id}/versions`, { files, alias: 'pr-42' });
    expect(same.json).toMatchObject({ version: null, alias: { version: 2 } });

    const { deliveries } = (await api(owner.token, 'GET', `/v1/webhooks/${hook.json.webhook?.id ?? hook.json.id}/deliveries`)).json;
    expect(deliveries.map((d: { event: string }) => d.event)).toEqual(['alias.moved', 'alias.moved', 'alias.moved']);
    // Visitor statistics name the alias each view came through.
    const stats = (await api(owner.token, 'GET', `/v1/spaces/${space.id}/visitors?days=1`)).json;
    expect(stats.aliases).toEqual([{ label: 'pr-42', views: 2 }]);
    expect(stats.recent.map((v: { alias: string | null }) => v.alias)).toEqual([null, 'pr-42', 'pr-42']);
    const listed = await api(owner.token, 'GET', `/v1/spaces/${space.id}/aliases`);
    expect(listed.json.aliases.map((a: { name: string; version: number }) => [a.name, a.version])).toEqual([['pr-42', 2]]);
    expect((await api(owner.token, 'PUT', `/v1/spaces/${space.id}/aliases/pr-42`, { version: 9 })).json.error.message).toBe('There is no version 9: the latest is 2.');
    for (const bad of ['latest', 'Pr-1', 'a--b', '-x', 'x'.repeat(31)]) expect((await api(owner.token, 'PUT', `/v1/spaces/${space.id}/aliases/${bad}`, { version: 1 })).status, bad).toBe(400);

    expect((await api(owner.token, 'DELETE', `/v1/spaces/${space.id}/aliases/pr-42`)).status).toBe(204);
    const gone = await rawRequest(preview, 'GET', '/');
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('There is no alias');
    expect((await api(owner.token, 'DELETE', `/v1/spaces/${space.id}/aliases/pr-42`)).status).toBe(404);
  });

  it('hands members over to a members-only alias host, and serves /s/<id>/~<alias>/ without a content domain', async () => {
    const owner = await signIn('alias-members', 'web');
    const space = await makeSpace(owner.token, 'alias-members', { visibility: 'members' });
    await push(owner.token, space.id, { 'index.html': 'members preview' });
    await api(owner.token, 'PUT', `/v1/spaces/${space.id}/aliases/review`, { version: 1 });
    const preview = onPort(aliasUrl(space.id, 'review'), server.origin);
    const direct = await rawRequest(preview, 'GET', '/docs/');
    expect([direct.status, direct.headers.location]).toEqual([303, `http://localhost:3000/s/${space.id}/~review/docs/`]);
    const handOff = await rawRequest(server.origin, 'GET', `/s/${space.id}/~review/`, { headers: { cookie: `atrium_session=${owner.token}` } });
    const target = new URL(handOff.headers.location as string);
    expect(target.origin).toBe(new URL(aliasUrl(space.id, 'review')).origin);
    const exchange = await rawRequest(preview, 'GET', target.pathname + target.search);
    const cookie = (exchange.headers['set-cookie'] as string[])[0].split(';')[0];
    expect((await rawRequest(preview, 'GET', '/', { headers: { cookie } })).text).toBe('members preview');

    Object.assign(config, { contentDomain: null });
    const sandboxed = await rawRequest(server.origin, 'GET', `/s/${space.id}/~review/`, { headers: { cookie: `atrium_session=${owner.token}` } });
    expect([sandboxed.status, sandboxed.text]).toEqual([200, 'members preview']);
    expect((await rawRequest(server.origin, 'GET', `/s/${space.id}/~nope/`, { headers: { cookie: `atrium_session=${owner.token}` } })).status).toBe(404);
  });
});
