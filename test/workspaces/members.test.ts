import { describe, expect, it } from 'vitest';
import { POST as acceptRoute } from '@/app/v1/workspaces/[slug]/accept/route.ts';
import { POST as declineRoute } from '@/app/v1/workspaces/[slug]/decline/route.ts';
import { DELETE as removeRoute, PATCH as roleRoute } from '@/app/v1/workspaces/[slug]/members/[handle]/route.ts';
import { POST as inviteRoute } from '@/app/v1/workspaces/[slug]/members/route.ts';
import { GET as getRoute } from '@/app/v1/workspaces/[slug]/route.ts';
import { GET as meRoute } from '@/app/v1/me/route.ts';
import { db } from '@/lib/db/client.ts';
import { call, signIn } from '../helpers.ts';
import { team, type Person } from './helpers.ts';
import { enforcePlanLimits } from '../plan-limits.ts';

const invite = (by: Person, slug: string, handle: string, role?: string) =>
  call(inviteRoute, 'POST', `/v1/workspaces/${slug}/members`, { token: by.token, params: { slug }, body: { handle, role } });
const accept = (by: Person, slug: string) => call(acceptRoute, 'POST', `/v1/workspaces/${slug}/accept`, { token: by.token, params: { slug } });
const decline = (by: Person, slug: string) => call(declineRoute, 'POST', `/v1/workspaces/${slug}/decline`, { token: by.token, params: { slug } });
const setRole = (by: Person, slug: string, handle: string, role: string) =>
  call(roleRoute, 'PATCH', `/v1/workspaces/${slug}/members/${handle}`, { token: by.token, params: { slug, handle }, body: { role } });
const remove = (by: Person, slug: string, handle: string) =>
  call(removeRoute, 'DELETE', `/v1/workspaces/${slug}/members/${handle}`, { token: by.token, params: { slug, handle } });

async function roles(slug: string): Promise<Record<string, string>> {
  const rows = await db.membership.findMany({ where: { workspace: { slug } }, select: { role: true, status: true, user: { select: { handle: true } } } });
  return Object.fromEntries(rows.map((r) => [r.user.handle, r.status === 'pending' ? `${r.role} (pending)` : r.role]));
}

describe('invitations by handle', () => {
  it('are pending until accepted, show in GET /v1/me with the offered role, and accepting joins with that role', async () => {
    const [ava, ben] = [await signIn('ava'), await signIn('ben')];
    await team('crew', ava);
    const sent = await invite(ava, 'crew', 'ben', 'admin');
    expect(sent.status).toBe(204);
    expect(sent.text).toBe('');
    const me = await call(meRoute, 'GET', '/v1/me', { token: ben.token });
    expect(me.json.invites).toEqual([{ id: expect.any(String), slug: 'crew', name: 'Team crew', role: 'admin' }]);
    expect(me.json.workspaces.map((w: { slug: string }) => w.slug)).toEqual(['ben']);

    expect((await accept(ben, 'crew')).status).toBe(204);
    const after = await call(meRoute, 'GET', '/v1/me', { token: ben.token });
    expect(after.json.invites).toEqual([]);
    expect(after.json.workspaces.map((w: { slug: string; role: string }) => `${w.slug}:${w.role}`)).toEqual(['ben:owner', 'crew:admin']);
    // Accepting again is harmless.
    expect((await accept(ben, 'crew')).status).toBe(204);
  });

  it('default to the member role', async () => {
    const [cy, di] = [await signIn('cy'), await signIn('di')];
    await team('band', cy);
    expect((await invite(cy, 'band', 'di')).status).toBe(204);
    expect(await roles('band')).toEqual({ cy: 'owner', di: 'member (pending)' });
  });

  it('can be declined, which leaves no trace of membership', async () => {
    const [ed, flo] = [await signIn('ed'), await signIn('flo')];
    await team('choir', ed);
    await invite(ed, 'choir', 'flo');
    expect((await decline(flo, 'choir')).status).toBe(204);
    expect(await roles('choir')).toEqual({ ed: 'owner' });
    expect((await accept(flo, 'choir')).status).toBe(404);
    expect((await decline(flo, 'choir')).status).toBe(404);
  });

  it('answer 404 to accept or decline without an invitation, and decline by a member', async () => {
    const [gus, hua] = [await signIn('gus'), await signIn('hua')];
    await team('pack', gus);
    expect((await accept(hua, 'pack')).status).toBe(404);
    expect((await decline(hua, 'pack')).status).toBe(404);
    expect((await accept(hua, 'nowhere')).status).toBe(404);
    expect((await decline(gus, 'pack')).status).toBe(404);
  });

  it('are sent only by owners and admins (403 for members and viewers, 404 for outsiders)', async () => {
    const [ian, jo, kai, lia, mo] = await Promise.all(['ian', 'jo', 'kai', 'lia', 'mo'].map((h) => signIn(h)));
    await team('deck', ian, [[jo, 'admin'], [kai, 'member'], [lia, 'viewer']]);
    expect((await invite(jo, 'deck', 'mo')).status).toBe(204);
    const byMember = await invite(kai, 'deck', 'mo');
    expect(byMember.status).toBe(403);
    expect(byMember.json.error.message).toContain('owner or admin');
    expect((await invite(lia, 'deck', 'mo')).status).toBe(403);
    expect((await invite(mo, 'deck', 'mo')).status).toBe(404);
  });

  it('of owners are sent only by owners', async () => {
    const [ned, oz, pia] = await Promise.all(['ned', 'oz', 'pia'].map((h) => signIn(h)));
    await team('fleet', ned, [[oz, 'admin']]);
    const byAdmin = await invite(oz, 'fleet', 'pia', 'owner');
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.json.error.message).toContain('Only an owner');
    expect((await invite(oz, 'fleet', 'pia', 'admin')).status).toBe(204);
    expect((await invite(ned, 'fleet', 'pia', 'owner')).status).toBe(204);
    expect(await roles('fleet')).toEqual({ ned: 'owner', oz: 'admin', pia: 'owner (pending)' });
  });

  it('answer 404 for an unknown handle, 409 for someone already a member, and renew the offer for someone invited', async () => {
    const [quin, ray] = [await signIn('quin'), await signIn('ray')];
    await team('club', quin, [[ray, 'member']]);
    expect((await invite(quin, 'club', 'nobody-here')).status).toBe(404);
    const again = await invite(quin, 'club', 'ray');
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('conflict');
    expect((await invite(quin, 'club', 'quin')).status).toBe(409);
    const sue = await signIn('sue');
    await invite(quin, 'club', 'sue', 'viewer');
    expect((await invite(quin, 'club', 'sue', 'admin')).status).toBe(204);
    expect((await roles('club')).sue).toBe('admin (pending)');
    expect((await invite(quin, 'club', 'Not A Handle')).status).toBe(400);
    expect(sue.user.handle).toBe('sue');
  });

  it('cannot be accepted past the seat limit (403), and can once a seat is free', async () => {
    enforcePlanLimits();
    const people = await Promise.all(['tao', 'uma', 'vic', 'wes'].map((h) => signIn(h)));
    const [tao, uma, vic, wes] = people;
    await team('tiny', tao, [[uma, 'member'], [vic, 'viewer']], 'free'); // the free plan's 3 seats are taken
    await invite(tao, 'tiny', 'wes');
    const full = await accept(wes, 'tiny');
    expect(full.status).toBe(403);
    expect(full.json.error.message).toBe(`"tiny" has no free seat: it has reached the Free plan's limit of 3 seats. Upgrade to Pro for 10 seats: http://localhost:3000/w/tiny/billing`);
    expect((await roles('tiny')).wes).toBe('member (pending)');

    await db.workspace.update({ where: { slug: 'tiny' }, data: { plan: 'pro' } });
    expect((await accept(wes, 'tiny')).status).toBe(204);
    expect((await roles('tiny')).wes).toBe('member');
  });
});

describe('role changes', () => {
  it('are made by owners and admins; members and viewers get 403, outsiders 404', async () => {
    const [amy, bo, cal, dee, eli] = await Promise.all(['amy', 'bo', 'cal', 'dee', 'eli'].map((h) => signIn(h)));
    await team('lab', amy, [[bo, 'admin'], [cal, 'member'], [dee, 'viewer']]);
    expect((await setRole(bo, 'lab', 'cal', 'viewer')).status).toBe(204);
    expect((await setRole(cal, 'lab', 'dee', 'member')).status).toBe(403);
    expect((await setRole(dee, 'lab', 'dee', 'admin')).status).toBe(403);
    expect((await setRole(eli, 'lab', 'dee', 'admin')).status).toBe(404);
    expect((await setRole(amy, 'lab', 'nobody', 'admin')).status).toBe(404);
    expect((await setRole(amy, 'lab', 'cal', 'boss')).status).toBe(400);
    expect(await roles('lab')).toEqual({ amy: 'owner', bo: 'admin', cal: 'viewer', dee: 'viewer' });
  });

  it('to or from owner are made only by owners', async () => {
    const [fox, gia, hal] = await Promise.all(['fox', 'gia', 'hal'].map((h) => signIn(h)));
    await team('den', fox, [[gia, 'admin'], [hal, 'member']]);
    expect((await setRole(gia, 'den', 'hal', 'owner')).status).toBe(403);
    expect((await setRole(gia, 'den', 'gia', 'owner')).status).toBe(403);
    expect((await setRole(gia, 'den', 'fox', 'admin')).status).toBe(403);
    expect((await setRole(fox, 'den', 'hal', 'owner')).status).toBe(204);
    expect((await setRole(hal, 'den', 'fox', 'member')).status).toBe(204);
    expect(await roles('den')).toEqual({ fox: 'member', gia: 'admin', hal: 'owner' });
  });

  it('never demote the last owner: 409, and the role stays', async () => {
    const [ivy, jay] = [await signIn('ivy'), await signIn('jay')];
    await team('nest', ivy, [[jay, 'admin']]);
    const demote = await setRole(ivy, 'nest', 'ivy', 'admin');
    expect(demote.status).toBe(409);
    expect(demote.json.error).toEqual({ code: 'conflict', message: expect.stringContaining('only owner') });
    expect((await roles('nest')).ivy).toBe('owner');
    // A pending owner invitation does not count as an owner.
    const ken = await signIn('ken');
    await invite(ivy, 'nest', 'ken', 'owner');
    expect((await setRole(ivy, 'nest', 'ivy', 'admin')).status).toBe(409);
    expect(ken.user.handle).toBe('ken');
  });

  it('also change the role offered to someone still invited', async () => {
    const [lu, mia] = [await signIn('lu'), await signIn('mia')];
    await team('hive', lu);
    await invite(lu, 'hive', 'mia', 'viewer');
    expect((await setRole(lu, 'hive', 'mia', 'admin')).status).toBe(204);
    expect((await call(meRoute, 'GET', '/v1/me', { token: mia.token })).json.invites[0].role).toBe('admin');
  });

  it('two owners stepping down at the same time leave one owner', async () => {
    const [nia, oli] = [await signIn('nia'), await signIn('oli')];
    await team('duo', nia, [[oli, 'owner']]);
    const results = await Promise.all([setRole(nia, 'duo', 'nia', 'member'), setRole(oli, 'duo', 'oli', 'member')]);
    expect(results.map((r) => r.status).sort()).toEqual([204, 409]);
    expect(Object.values(await roles('duo')).sort()).toEqual(['member', 'owner']);
  });
});

describe('removal and leaving', () => {
  it('owners and admins remove members and cancel invitations; members and viewers get 403', async () => {
    const [pat, quy, rae, sam, ted] = await Promise.all(['pat', 'quy', 'rae', 'sam', 'ted'].map((h) => signIn(h)));
    await team('yard', pat, [[quy, 'admin'], [rae, 'member'], [sam, 'viewer']]);
    await invite(pat, 'yard', 'ted');
    expect((await remove(rae, 'yard', 'sam')).status).toBe(403);
    expect((await remove(sam, 'yard', 'rae')).status).toBe(403);
    expect((await remove(quy, 'yard', 'sam')).status).toBe(204);
    expect((await remove(quy, 'yard', 'ted')).status).toBe(204);
    expect((await remove(quy, 'yard', 'ted')).status).toBe(404);
    expect(await roles('yard')).toEqual({ pat: 'owner', quy: 'admin', rae: 'member' });
    expect((await call(getRoute, 'GET', '/v1/workspaces/yard', { token: sam.token, params: { slug: 'yard' } })).status).toBe(404);
    expect((await call(meRoute, 'GET', '/v1/me', { token: ted.token })).json.invites).toEqual([]);
  });

  it('of an owner is done only by an owner', async () => {
    const [uli, val, wu] = await Promise.all(['uli', 'val', 'wu'].map((h) => signIn(h)));
    await team('keep', uli, [[val, 'owner'], [wu, 'admin']]);
    expect((await remove(wu, 'keep', 'val')).status).toBe(403);
    expect((await remove(uli, 'keep', 'val')).status).toBe(204);
    expect(await roles('keep')).toEqual({ uli: 'owner', wu: 'admin' });
  });

  it('lets anyone leave, except the last owner (409)', async () => {
    const [xia, yan, zed] = await Promise.all(['xia', 'yan', 'zed'].map((h) => signIn(h)));
    await team('camp', xia, [[yan, 'viewer'], [zed, 'owner']]);
    expect((await remove(yan, 'camp', 'yan')).status).toBe(204);
    expect((await remove(zed, 'camp', 'zed')).status).toBe(204);
    const last = await remove(xia, 'camp', 'xia');
    expect(last.status).toBe(409);
    expect(last.json.error.message).toContain('only owner');
    expect(await roles('camp')).toEqual({ xia: 'owner' });
    // Nor can one leave a personal workspace one alone owns.
    expect((await remove(xia, 'xia', 'xia')).status).toBe(409);
  });

  it('answers 404 to outsiders and for someone who is not there', async () => {
    const [abe, bea] = [await signIn('abe'), await signIn('bea')];
    await team('shop', abe);
    expect((await remove(bea, 'shop', 'abe')).status).toBe(404);
    expect((await remove(bea, 'shop', 'bea')).status).toBe(404);
    expect((await remove(abe, 'shop', 'bea')).status).toBe(404);
  });
});
