import { describe, expect, it } from 'vitest';
import { POST as acceptRoute } from '@/app/v1/workspace-invites/accept/route.ts';
import { POST as previewRoute } from '@/app/v1/workspace-invites/preview/route.ts';
import { DELETE as revokeRoute } from '@/app/v1/workspaces/[slug]/invites/[id]/route.ts';
import { GET as listRoute, POST as createRoute } from '@/app/v1/workspaces/[slug]/invites/route.ts';
import { POST as inviteRoute } from '@/app/v1/workspaces/[slug]/members/route.ts';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { hashSecret } from '@/lib/secrets.ts';
import { call, signIn, useSmtpServer } from '../helpers.ts';
import { mailText } from '../smtp-server.ts';
import { team, type Person } from './helpers.ts';
import { enforcePlanLimits } from '../plan-limits.ts';

const DAY = 24 * 60 * 60 * 1000;

const create = (by: Person, slug: string, body: Record<string, unknown> = {}) =>
  call(createRoute, 'POST', `/v1/workspaces/${slug}/invites`, { token: by.token, params: { slug }, body });
const list = (by: Person, slug: string) => call(listRoute, 'GET', `/v1/workspaces/${slug}/invites`, { token: by.token, params: { slug } });
const revoke = (by: Person, slug: string, id: string) =>
  call(revokeRoute, 'DELETE', `/v1/workspaces/${slug}/invites/${id}`, { token: by.token, params: { slug, id } });
const preview = (token: string, as?: Person) => call(previewRoute, 'POST', '/v1/workspace-invites/preview', { token: as?.token, body: { token } });
const accept = (token: string, as: Person) => call(acceptRoute, 'POST', '/v1/workspace-invites/accept', { token: as.token, body: { token } });
const linkToken = (url: string) => url.split('/invite/')[1];

async function membership(slug: string, handle: string) {
  return db.membership.findFirst({ where: { workspace: { slug }, user: { handle } }, select: { role: true, status: true } });
}

describe('creating invite links', () => {
  it('returns the link once, keeps only its hash, and defaults to the member role, no use limit and 7 days', async () => {
    const ada = await signIn('ada', 'cli', 'Ada');
    await team('works', ada);
    const { status, json } = await create(ada, 'works');
    expect(status).toBe(200);
    expect(json).toEqual({
      invite: {
        id: expect.stringMatching(/^wsi_[a-z0-9]{21}$/),
        role: 'member',
        email: null,
        maxUses: null,
        uses: 0,
        createdBy: { id: ada.user.id, handle: 'ada', name: 'Ada' },
        createdAt: expect.any(Number),
        expiresAt: expect.any(Number),
      },
      url: expect.stringMatching(/^http:\/\/localhost:3000\/invite\/atrw_[A-Za-z0-9_-]{43}$/),
      emailed: false,
    });
    expect(json.invite.expiresAt - json.invite.createdAt).toBe(7 * DAY);
    const stored = await db.workspaceInvite.findUniqueOrThrow({ where: { id: json.invite.id } });
    expect(stored.hash).toBe(hashSecret(linkToken(json.url)));
    expect(JSON.stringify(stored)).not.toContain(linkToken(json.url));
    // The listing never shows the link again.
    const listed = await list(ada, 'works');
    expect(listed.json).toEqual({ invites: [json.invite] });
    expect(listed.text).not.toContain(linkToken(json.url));
  });

  it('takes a role, an e-mail, a use limit and an expiry', async () => {
    const bea = await signIn('bea');
    await team('atelier', bea);
    const { json } = await create(bea, 'atelier', { role: 'viewer', email: 'Guest@Example.com', maxUses: 2, expiresInDays: 30 });
    expect(json.invite).toMatchObject({ role: 'viewer', email: 'guest@example.com', maxUses: 2, uses: 0 });
    expect(json.invite.expiresAt - json.invite.createdAt).toBe(30 * DAY);
    expect(json.emailed).toBe(false); // no SMTP server configured here
  });

  it('refuses bad values with 400', async () => {
    const cid = await signIn('cid');
    await team('forge', cid);
    for (const body of [{ role: 'boss' }, { email: 'not-an-address' }, { maxUses: 0 }, { maxUses: 1.5 }, { expiresInDays: 0 }, { expiresInDays: 91 }]) {
      const answer = await create(cid, 'forge', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('is for owners and admins (403 for members and viewers, 404 for outsiders); only owners make owner links', async () => {
    const [dov, eli, fen, gwen, hux] = await Promise.all(['dov', 'eli', 'fen', 'gwen', 'hux'].map((h) => signIn(h)));
    await team('mill', dov, [[eli, 'admin'], [fen, 'member'], [gwen, 'viewer']]);
    expect((await create(eli, 'mill', { role: 'admin' })).status).toBe(200);
    const ownerLink = await create(eli, 'mill', { role: 'owner' });
    expect(ownerLink.status).toBe(403);
    expect(ownerLink.json.error.message).toContain('Only an owner');
    expect((await create(dov, 'mill', { role: 'owner' })).status).toBe(200);
    expect((await create(fen, 'mill')).status).toBe(403);
    expect((await create(gwen, 'mill')).status).toBe(403);
    expect((await create(hux, 'mill')).status).toBe(404);
    expect((await list(fen, 'mill')).status).toBe(403);
    expect((await list(hux, 'mill')).status).toBe(404);
  });
});

describe('e-mailed invite links', () => {
  const smtp = useSmtpServer();

  it('are sent to the address when SMTP is configured, and say so with emailed: true', async () => {
    const ida = await signIn('ida', 'cli', 'Ida Lee');
    await team('press', ida);
    const { json } = await create(ida, 'press', { email: 'newcomer@example.com', role: 'admin' });
    expect(json.emailed).toBe(true);
    const mail = smtp.mails.at(-1)!;
    expect(mail.to).toEqual(['<newcomer@example.com>']);
    const text = mailText(mail);
    expect(text).toContain('Ida Lee (@ida) invited you to join the workspace "Team press" (press) on Atrium as admin.');
    expect(text).toContain(json.url);
  });

  it('still work when the mail server cannot be reached, with emailed: false', async () => {
    const jan = await signIn('jan');
    await team('depot', jan);
    config.smtpUrl = 'smtp://127.0.0.1:1';
    try {
      const { status, json } = await create(jan, 'depot', { email: 'x@example.com' });
      expect(status).toBe(200);
      expect(json.emailed).toBe(false);
      expect((await preview(linkToken(json.url))).status).toBe(200);
    } finally {
      config.smtpUrl = smtp.url;
    }
  });

  it('send nothing for a link without an e-mail', async () => {
    const kit = await signIn('kit');
    await team('yard', kit);
    const before = smtp.mails.length;
    expect((await create(kit, 'yard')).json.emailed).toBe(false);
    expect(smtp.mails.length).toBe(before);
  });
});

describe('previewing an invite link', () => {
  it('needs no sign-in and shows the workspace, role, inviter, member count and expiry', async () => {
    const [lea, moe] = [await signIn('lea', 'cli', 'Lea'), await signIn('moe')];
    await team('guild', lea, [[moe, 'member']]);
    const { json: link } = await create(lea, 'guild', { role: 'viewer' });
    const { status, json } = await preview(linkToken(link.url));
    expect(status).toBe(200);
    expect(json).toEqual({
      workspace: { id: expect.any(String), slug: 'guild', name: 'Team guild' },
      role: 'viewer',
      invitedBy: { id: lea.user.id, handle: 'lea', name: 'Lea' },
      memberCount: 2,
      expiresAt: link.invite.expiresAt,
      alreadyMember: false,
    });
    expect((await preview(linkToken(link.url), moe)).json.alreadyMember).toBe(true);
    const ned = await signIn('ned');
    expect((await preview(linkToken(link.url), ned)).json.alreadyMember).toBe(false);
    // A stale token is refused rather than treated as anonymous, so the client learns to sign in again.
    expect((await call(previewRoute, 'POST', '/v1/workspace-invites/preview', { token: 'atr_stale', body: { token: linkToken(link.url) } })).status).toBe(401);
  });

  it('answers 404 for an unknown link and 410 for a revoked, expired or used-up one', async () => {
    const [ora, pip] = [await signIn('ora'), await signIn('pip')];
    await team('quay', ora);
    expect((await preview('atrw_nonsense')).status).toBe(404);

    const revoked = (await create(ora, 'quay')).json;
    expect((await revoke(ora, 'quay', revoked.invite.id)).status).toBe(204);
    const gone = await preview(linkToken(revoked.url));
    expect(gone.status).toBe(410);
    expect(gone.json.error).toEqual({ code: 'gone', message: expect.stringContaining('revoked') });

    const expired = (await create(ora, 'quay')).json;
    await db.workspaceInvite.update({ where: { id: expired.invite.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await preview(linkToken(expired.url))).json.error.message).toContain('expired');
    expect((await preview(linkToken(expired.url))).status).toBe(410);

    const single = (await create(ora, 'quay', { maxUses: 1 })).json;
    expect((await accept(linkToken(single.url), pip)).status).toBe(200);
    const usedUp = await preview(linkToken(single.url));
    expect(usedUp.status).toBe(410);
    expect(usedUp.json.error.message).toContain('used up');
  });
});

describe('accepting an invite link', () => {
  it("joins with the link's role and counts a use", async () => {
    const [quin, ros] = [await signIn('quin'), await signIn('ros')];
    await team('harbor', quin);
    const { json: link } = await create(quin, 'harbor', { role: 'admin', maxUses: 5 });
    const { status, json } = await accept(linkToken(link.url), ros);
    expect(status).toBe(200);
    expect(json).toEqual({ workspace: { id: expect.any(String), slug: 'harbor', name: 'Team harbor', role: 'admin' }, alreadyMember: false });
    expect(await membership('harbor', 'ros')).toEqual({ role: 'admin', status: 'accepted' });
    expect((await list(quin, 'harbor')).json.invites[0].uses).toBe(1);
  });

  it('is harmless for someone already a member: it says so and counts no use', async () => {
    const [sal, tam] = [await signIn('sal'), await signIn('tam')];
    await team('wharf', sal, [[tam, 'viewer']]);
    const { json: link } = await create(sal, 'wharf', { role: 'admin', maxUses: 1 });
    const { status, json } = await accept(linkToken(link.url), tam);
    expect(status).toBe(200);
    expect(json).toEqual({ workspace: expect.objectContaining({ slug: 'wharf', role: 'viewer' }), alreadyMember: true });
    expect(await membership('wharf', 'tam')).toEqual({ role: 'viewer', status: 'accepted' });
    expect((await list(sal, 'wharf')).json.invites[0].uses).toBe(0);
  });

  it('turns a pending invitation into membership with the link role', async () => {
    const [uli, vin] = [await signIn('uli'), await signIn('vin')];
    await team('pier', uli);
    await call(inviteRoute, 'POST', '/v1/workspaces/pier/members', { token: uli.token, params: { slug: 'pier' }, body: { handle: 'vin', role: 'viewer' } });
    const { json: link } = await create(uli, 'pier', { role: 'member' });
    expect((await accept(linkToken(link.url), vin)).json.alreadyMember).toBe(false);
    expect(await membership('pier', 'vin')).toEqual({ role: 'member', status: 'accepted' });
  });

  it('needs a signed-in caller (401), and answers 404 and 410 as the preview does', async () => {
    const [wyn, xan] = [await signIn('wyn'), await signIn('xan')];
    await team('dock', wyn);
    const { json: link } = await create(wyn, 'dock');
    expect((await call(acceptRoute, 'POST', '/v1/workspace-invites/accept', { body: { token: linkToken(link.url) } })).status).toBe(401);
    expect((await accept('atrw_unknown', xan)).status).toBe(404);
    await revoke(wyn, 'dock', link.invite.id);
    expect((await accept(linkToken(link.url), xan)).status).toBe(410);
    expect(await membership('dock', 'xan')).toBeNull();
  });

  it('with an e-mail is only for the account with that address (403 otherwise)', async () => {
    const [yul, zoe, abi] = [await signIn('yul'), await signIn('zoe'), await signIn('abi')];
    await team('lodge', yul);
    await db.user.update({ where: { id: zoe.user.id }, data: { email: 'zoe@example.com' } });
    await db.user.update({ where: { id: abi.user.id }, data: { email: 'abi@example.com' } });
    const { json: link } = await create(yul, 'lodge', { email: 'ZOE@example.com' });
    const wrong = await accept(linkToken(link.url), abi);
    expect(wrong.status).toBe(403);
    expect(wrong.json.error.message).toContain('another e-mail address');
    const none = await signIn('noemail');
    expect((await accept(linkToken(link.url), none)).status).toBe(403);
    expect((await accept(linkToken(link.url), zoe)).status).toBe(200);
    expect(await membership('lodge', 'zoe')).toEqual({ role: 'member', status: 'accepted' });
    expect(await membership('lodge', 'abi')).toBeNull();
  });

  it('is refused past the seat limit (403) without counting a use', async () => {
    enforcePlanLimits();
    const [bo, cy, di, ed] = await Promise.all(['bo', 'cy', 'di', 'ed'].map((h) => signIn(h)));
    await team('cabin', bo, [[cy, 'member']], 'free');
    const { json: link } = await create(bo, 'cabin', { maxUses: 10 });
    expect((await accept(linkToken(link.url), di)).status).toBe(200); // the third and last free seat
    const full = await accept(linkToken(link.url), ed);
    expect(full.status).toBe(403);
    expect(full.json.error.message).toContain('no free seat');
    expect(await membership('cabin', 'ed')).toBeNull();
    expect((await list(bo, 'cabin')).json.invites[0].uses).toBe(1);
  });

  it('lets exactly one of two people racing for the last use in', async () => {
    const [fay, gus, hal] = await Promise.all(['fay', 'gus', 'hal'].map((h) => signIn(h)));
    await team('loft', fay);
    const { json: link } = await create(fay, 'loft', { maxUses: 1 });
    const results = await Promise.all([accept(linkToken(link.url), gus), accept(linkToken(link.url), hal)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 410]);
    const joined = await db.membership.count({ where: { workspace: { slug: 'loft' }, user: { handle: { in: ['gus', 'hal'] } } } });
    expect(joined).toBe(1);
    expect((await db.workspaceInvite.findUniqueOrThrow({ where: { id: link.invite.id } })).uses).toBe(1);
  });

  it('lets exactly one of two people racing for the last seat in', async () => {
    enforcePlanLimits();
    const [ivy, jo, kay, lou] = await Promise.all(['ivy', 'jo', 'kay', 'lou'].map((h) => signIn(h)));
    await team('shed', ivy, [[jo, 'member']], 'free');
    const { json: link } = await create(ivy, 'shed');
    const results = await Promise.all([accept(linkToken(link.url), kay), accept(linkToken(link.url), lou)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 403]);
    expect(await db.membership.count({ where: { workspace: { slug: 'shed' }, status: 'accepted' } })).toBe(3);
  });
});

describe('listing and revoking invite links', () => {
  it('lists only live links, newest first', async () => {
    const [max, ned] = [await signIn('max'), await signIn('ned2')];
    await team('barn', max);
    const first = (await create(max, 'barn')).json.invite;
    const revoked = (await create(max, 'barn')).json.invite;
    const expired = (await create(max, 'barn')).json.invite;
    const usedUp = (await create(max, 'barn', { maxUses: 1 })).json;
    const last = (await create(max, 'barn', { maxUses: 2 })).json;
    await revoke(max, 'barn', revoked.id);
    await db.workspaceInvite.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    await accept(linkToken(usedUp.url), ned);
    const { json } = await list(max, 'barn');
    expect(json.invites.map((i: { id: string }) => i.id)).toEqual([last.invite.id, first.id]);
  });

  it('revokes for owners and admins only, 404 for an unknown link or one of another workspace, and again is harmless', async () => {
    const [oak, pim, rue] = await Promise.all(['oak', 'pim', 'rue'].map((h) => signIn(h)));
    await team('grove', oak, [[pim, 'member']]);
    await team('field', rue);
    const link = (await create(oak, 'grove')).json.invite;
    const elsewhere = (await create(rue, 'field')).json.invite;
    expect((await revoke(pim, 'grove', link.id)).status).toBe(403);
    expect((await revoke(rue, 'grove', link.id)).status).toBe(404);
    expect((await revoke(oak, 'grove', 'wsi_nothing')).status).toBe(404);
    expect((await revoke(oak, 'grove', elsewhere.id)).status).toBe(404);
    expect((await revoke(oak, 'grove', link.id)).status).toBe(204);
    expect((await revoke(oak, 'grove', link.id)).status).toBe(204);
    expect((await list(oak, 'grove')).json.invites).toEqual([]);
    expect((await list(rue, 'field')).json.invites).toHaveLength(1);
  });
});
