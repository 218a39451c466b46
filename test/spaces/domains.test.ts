// Custom domains through the real front server: added with the DNS record
// that proves ownership, verified by looking it up (a DNS stub on loopback
// answers, as the name's DNS would), served as the space with its access
// rules, refused to Caddy's ask until verified and published, never taken by
// a second space, expiring unverified, and removed at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { CLAIM_LIFETIME_MS, dnsLookup } from '@/lib/spaces/domains.ts';
import { startDnsStub, type DnsStub } from '../dns-stub.ts';
import { signIn } from '../helpers.ts';
import { rawRequest } from '../http/raw.ts';
import { useFrontServer } from '../server.ts';
import { makeSpace, push } from './fixtures.ts';

const server = useFrontServer();
let dns: DnsStub;
const saved = { ...dnsLookup };
beforeAll(async () => {
  dns = await startDnsStub();
  dnsLookup.servers = [dns.server];
});
afterAll(async () => {
  Object.assign(dnsLookup, saved);
  await dns.close();
});

const api = (token: string, method: string, path: string, body?: unknown) =>
  rawRequest(server.origin, method, path, { headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
/** A request to the test's server for `hostname`, as a browser whose DNS points the name here would send it. */
const at = (hostname: string, path: string, headers: Record<string, string> = {}) => rawRequest(server.origin, 'GET', path, { headers: { host: hostname, ...headers } });
const ask = (hostname: string) => rawRequest(server.origin, 'GET', `/v1/domains/check?domain=${hostname}`);
/** Publishes the claim's record in the stub's DNS, as its owner would at their DNS host. */
const publishRecord = (domain: { verification: { record: { name: string; value: string } } }) => dns.txt.set(domain.verification.record.name, [domain.verification.record.value]);

describe('custom domains', () => {
  it('are verified by a TXT record of the claim, then serve the space; removal stops it at once', async () => {
    const owner = await signIn('domain-owner', 'web');
    const space = await makeSpace(owner.token, 'domain-owner');

    const added = await api(owner.token, 'POST', `/v1/spaces/${space.id}/domains`, { hostname: 'Docs.Example.com.' });
    expect(added.status).toBe(200);
    const { token } = added.json.verification;
    expect(added.json).toMatchObject({
      hostname: 'docs.example.com',
      status: 'pending',
      verification: { token: expect.stringMatching(/^[0-9a-f]{32}$/), record: { type: 'TXT', name: '_atrium-challenge.docs.example.com', value: `atrium-verify=${token}` } },
      expiresAt: added.json.createdAt + CLAIM_LIFETIME_MS,
    });
    // Pending: the name serves neither the site nor the app.
    expect((await at('docs.example.com', '/')).status).toBe(404);
    expect((await ask('docs.example.com')).status).toBe(404);

    // Each failure says what was looked up and what was found, and nothing about sockets or addresses.
    const verify = () => api(owner.token, 'POST', `/v1/spaces/${space.id}/domains/docs.example.com/verify`);
    const missing = await verify();
    expect(missing.status).toBe(409);
    expect(missing.json.error.message).toBe(
      `docs.example.com is not verified yet: _atrium-challenge.docs.example.com does not exist in DNS. Create a TXT record _atrium-challenge.docs.example.com with the value atrium-verify=${token} and try again (DNS changes can take a few minutes).`,
    );
    dns.txt.set('_atrium-challenge.docs.example.com', ['v=spf1 -all']);
    expect((await verify()).json.error.message).toContain('_atrium-challenge.docs.example.com has 1 TXT record, none of them atrium-verify=…');
    dns.txt.set('_atrium-challenge.docs.example.com', ['atrium-verify=0123456789abcdef0123456789abcdef']);
    expect((await verify()).json.error.message).toContain(`_atrium-challenge.docs.example.com has "atrium-verify=0123456789abcdef0123456789abcdef", which is not this claim's record`);
    dnsLookup.servers = ['127.0.0.1:9'];
    const unanswered = await verify();
    dnsLookup.servers = [dns.server];
    expect(unanswered.json.error.message).toContain('no DNS server answered for _atrium-challenge.docs.example.com');
    expect(unanswered.json.error.message).not.toMatch(/127\.0\.0\.1|ECONN|:9\b/);

    publishRecord(added.json);
    const verified = await verify();
    expect(verified.json).toMatchObject({ hostname: 'docs.example.com', status: 'active', verifiedAt: expect.any(Number), expiresAt: null });
    // Verified but nothing published yet: Caddy gets no certificate for it.
    expect((await ask('docs.example.com')).status).toBe(404);
    await push(owner.token, space.id, { 'index.html': '<h1>Docs at home</h1>', _headers: '/*\n  X-Served-By: the site\n' });
    expect((await ask('docs.example.com')).json).toEqual({ domain: 'docs.example.com', active: true });
    const home = await at('docs.example.com', '/');
    expect([home.status, home.text, home.headers['x-served-by']]).toEqual([200, '<h1>Docs at home</h1>', 'the site']);
    // Never the app's pages or API on it.
    expect((await at('docs.example.com', '/v1/me', { authorization: `Bearer ${owner.token}` })).status).toBe(404);

    // Names of Atrium's own are refused.
    const other = await makeSpace(owner.token, 'domain-owner', { name: 'Other' });
    for (const bad of ['localhost', 'sp-abc.localhost', '10.0.0.1', 'has space.example.com', 'example']) {
      expect((await api(owner.token, 'POST', `/v1/spaces/${other.id}/domains`, { hostname: bad })).status, bad).toBe(400);
    }
    expect((await api(owner.token, 'POST', `/v1/spaces/${space.id}/domains`, { hostname: 'docs.example.com' })).json.error.message).toBe('docs.example.com is already added to this space.');

    expect((await api(owner.token, 'DELETE', `/v1/spaces/${space.id}/domains/docs.example.com`)).status).toBe(204);
    // A removed name that still points here is no one's: neither the site nor the app.
    for (const path of ['/', '/v1/me', '/settings']) {
      const gone = await at('docs.example.com', path, { authorization: `Bearer ${owner.token}` });
      expect([path, gone.status]).toEqual([path, 404]);
      expect(gone.text).not.toContain('Docs at home');
    }
    expect((await at('docs.example.com', '/healthz')).status).toBe(200);
    expect((await ask('docs.example.com')).status).toBe(404);
  });

  it('a name verified for one space is never taken by another, and a squatter\'s claim holds nothing', async () => {
    const owner = await signIn('domain-rightful', 'web');
    const squatter = await signIn('domain-squatter', 'web');
    const mine = await makeSpace(owner.token, 'domain-rightful');
    const theirs = await makeSpace(squatter.token, 'domain-squatter');
    await push(squatter.token, theirs.id, { 'index.html': 'not yours' });

    // The squatter claims first; the name already points at Atrium, which proves nothing now.
    const squat = await api(squatter.token, 'POST', `/v1/spaces/${theirs.id}/domains`, { hostname: 'www.rightful.example' });
    expect(squat.status).toBe(200);
    expect((await api(squatter.token, 'POST', `/v1/spaces/${theirs.id}/domains/www.rightful.example/verify`)).status).toBe(409);

    // The owner's claim is not blocked by it, and their record verifies theirs only.
    const claim = await api(owner.token, 'POST', `/v1/spaces/${mine.id}/domains`, { hostname: 'www.rightful.example' });
    expect(claim.status).toBe(200);
    expect(claim.json.verification.token).not.toBe(squat.json.verification.token);
    publishRecord(claim.json);
    expect((await api(squatter.token, 'POST', `/v1/spaces/${theirs.id}/domains/www.rightful.example/verify`)).status).toBe(409);
    expect((await api(owner.token, 'POST', `/v1/spaces/${mine.id}/domains/www.rightful.example/verify`)).json.status).toBe('active');

    // Now the name is the owner's: the squatter can neither verify nor claim it again.
    const taken = await api(squatter.token, 'POST', `/v1/spaces/${theirs.id}/domains/www.rightful.example/verify`);
    expect([taken.status, taken.json.error.message]).toEqual([409, 'www.rightful.example is verified for another space on this Atrium; it serves that space until its admins remove it there.']);
    await api(squatter.token, 'DELETE', `/v1/spaces/${theirs.id}/domains/www.rightful.example`);
    expect((await api(squatter.token, 'POST', `/v1/spaces/${theirs.id}/domains`, { hostname: 'www.rightful.example' })).status).toBe(409);
    // Even with the owner's record copied into their claim's place, a second verified row cannot exist.
    await expect(db.spaceDomain.create({ data: { spaceId: theirs.id, hostname: 'www.rightful.example', token: 'x', verifiedAt: new Date(), verifiedHostname: 'www.rightful.example' } })).rejects.toThrow();
    expect((await at('www.rightful.example', '/')).text).not.toBe('not yours');
  });

  it('hold under races and hostile input: one verified space per name, one claim per space, DNS answers never echoed raw', async () => {
    const people = await Promise.all(['race-a', 'race-b', 'race-c'].map((handle) => signIn(handle, 'web')));
    const spaces = await Promise.all(people.map((person, i) => makeSpace(person.token, `race-${'abc'[i]}`)));
    // Each claims the name, and each claim's record is published: verifying all at once leaves one holder.
    const claims = await Promise.all(people.map((person, i) => api(person.token, 'POST', `/v1/spaces/${spaces[i].id}/domains`, { hostname: 'raced.example' })));
    dns.txt.set('_atrium-challenge.raced.example', claims.map((claim) => claim.json.verification.record.value));
    const verified = await Promise.all(people.map((person, i) => api(person.token, 'POST', `/v1/spaces/${spaces[i].id}/domains/raced.example/verify`)));
    expect(verified.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    expect(await db.spaceDomain.count({ where: { verifiedHostname: 'raced.example' } })).toBe(1);

    // The same name added to one space many times at once: one claim.
    const [person] = people;
    const adds = await Promise.all(Array.from({ length: 8 }, () => api(person.token, 'POST', `/v1/spaces/${spaces[0].id}/domains`, { hostname: 'twice.example' })));
    expect(adds.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);

    // Malformed and oversized names are refused in the envelope.
    for (const hostname of ['a'.repeat(300) + '.example', 'x.example/../../etc', 'münchen.example', '', '.example', 'a..example']) {
      const refused = await api(person.token, 'POST', `/v1/spaces/${spaces[0].id}/domains`, { hostname });
      expect([hostname.slice(0, 20), refused.status, typeof refused.json.error.message]).toEqual([hostname.slice(0, 20), 400, 'string']);
    }
    const longPath = await api(person.token, 'POST', `/v1/spaces/${spaces[0].id}/domains/${'a'.repeat(400)}.example/verify`);
    expect(longPath.status).toBe(400);

    // A record made to mislead (control characters, a huge value) is described, not echoed raw.
    const hostile = await api(person.token, 'POST', `/v1/spaces/${spaces[0].id}/domains`, { hostname: 'hostile.example' });
    dns.txt.set('_atrium-challenge.hostile.example', [`atrium-verify=\u001b[31m<script>${'x'.repeat(2000)}`]);
    const described = await api(person.token, 'POST', `/v1/spaces/${spaces[0].id}/domains/hostile.example/verify`);
    expect(described.status).toBe(409);
    expect(described.json.error.message).not.toContain('\u001b');
    expect(described.json.error.message.length).toBeLessThan(400);
    expect(hostile.json.status).toBe('pending');
  });

  it('expire unverified after a week, which frees the name', async () => {
    const owner = await signIn('domain-expiry', 'web');
    const space = await makeSpace(owner.token, 'domain-expiry');
    const first = await api(owner.token, 'POST', `/v1/spaces/${space.id}/domains`, { hostname: 'old.expiry.example' });
    await db.spaceDomain.updateMany({ where: { hostname: 'old.expiry.example' }, data: { createdAt: new Date(Date.now() - CLAIM_LIFETIME_MS - 1000) } });
    publishRecord(first.json);
    const late = await api(owner.token, 'POST', `/v1/spaces/${space.id}/domains/old.expiry.example/verify`);
    expect([late.status, late.json.error.message]).toEqual([404, 'No domain old.expiry.example on this space (a claim not verified within 7 days expires; add it again).']);
    expect((await api(owner.token, 'GET', `/v1/spaces/${space.id}/domains`)).json.domains).toEqual([]);
    const again = await api(owner.token, 'POST', `/v1/spaces/${space.id}/domains`, { hostname: 'old.expiry.example' });
    expect(again.status).toBe(200);
    expect(again.json.verification.token).not.toBe(first.json.verification.token);
  });

  it('hand members of a members-only space back to the domain they came from', async () => {
    const owner = await signIn('domain-members', 'web');
    const space = await makeSpace(owner.token, 'domain-members', { visibility: 'members' });
    await push(owner.token, space.id, { 'index.html': '<h1>Team handbook</h1>' });
    publishRecord((await api(owner.token, 'POST', `/v1/spaces/${space.id}/domains`, { hostname: 'handbook.example.org' })).json);
    expect((await api(owner.token, 'POST', `/v1/spaces/${space.id}/domains/handbook.example.org/verify`)).json.status).toBe('active');

    const first = await at('handbook.example.org', '/guide/');
    expect(first.status).toBe(303);
    const toApp = new URL(first.headers.location as string);
    expect(toApp.pathname).toBe(`/s/${space.id}/guide/`);
    expect(toApp.searchParams.get('atrium-return')).toBe('http://handbook.example.org');
    const back = await rawRequest(server.origin, 'GET', toApp.pathname + toApp.search, { headers: { cookie: `atrium_session=${owner.token}` } });
    const landing = new URL(back.headers.location as string);
    expect(landing.origin).toBe('http://handbook.example.org');
    expect(landing.searchParams.has('atrium-return')).toBe(false);
    const exchange = await at('handbook.example.org', landing.pathname + landing.search);
    const cookie = (exchange.headers['set-cookie'] as string[])[0];
    // Over plain http the cookie cannot be Secure, so it is the host's own without the prefix.
    expect(cookie).toMatch(/^atrium_space=atrp_[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/);
    expect((await at('handbook.example.org', '/', { cookie: cookie.split(';')[0] })).text).toBe('<h1>Team handbook</h1>');
    // A return address that is not this space's domain is never handed a token.
    const forged = await rawRequest(server.origin, 'GET', `/s/${space.id}/?atrium-return=${encodeURIComponent('http://evil.example')}`, { headers: { cookie: `atrium_session=${owner.token}` } });
    expect(String(forged.headers.location ?? '')).not.toContain('evil.example');
  });
});

describe('DNS_SERVERS', () => {
  it('takes addresses with optional ports, separated by commas, and names the variable otherwise', () => {
    expect(loadConfig({ DNS_SERVERS: '1.1.1.1, 8.8.8.8:53,[2606:4700::1111]:53,::1' }).dnsServers).toEqual(['1.1.1.1', '8.8.8.8:53', '[2606:4700::1111]:53', '::1']);
    expect(loadConfig({}).dnsServers).toEqual([]);
    for (const bad of ['dns.example.com', '1.1.1.1:99999', '1.1.1.1,', '300.1.1.1']) {
      expect(() => loadConfig({ DNS_SERVERS: bad }), bad).toThrow('DNS_SERVERS="');
    }
  });
});
