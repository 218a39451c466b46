import { describe, expect, it } from 'vitest';
import { GET as meRoute } from '@/app/v1/me/route.ts';
import { DELETE as revokeRoute } from '@/app/v1/tokens/[id]/route.ts';
import { DELETE as revokeCurrentRoute } from '@/app/v1/tokens/current/route.ts';
import { GET as tokensRoute } from '@/app/v1/tokens/route.ts';
import { db } from '@/lib/db/client.ts';
import { call, signIn } from '../helpers.ts';

const list = (token: string) => call(tokensRoute, 'GET', '/v1/tokens', { token });
const revoke = (token: string, id: string) => call(revokeRoute, 'DELETE', `/v1/tokens/${id}`, { token, params: { id } });

describe('GET /v1/tokens', () => {
  it("lists the caller's tokens and sessions with the current one marked, never a hash", async () => {
    const cli = await signIn('alice', 'cli');
    const web = await signIn('alice', 'web');
    await signIn('bob', 'cli');
    const { status, json } = await list(web.token);
    expect(status).toBe(200);
    expect(json.tokens).toHaveLength(2);
    for (const t of json.tokens) {
      expect(Object.keys(t).sort()).toEqual(['createdAt', 'current', 'expiresAt', 'id', 'label', 'lastUsedAt']);
    }
    expect(json.tokens.filter((t: { current: boolean }) => t.current)).toEqual([
      expect.objectContaining({ label: 'web', current: true, lastUsedAt: expect.any(Number), expiresAt: expect.any(Number) }),
    ]);
    const other = json.tokens.find((t: { current: boolean }) => !t.current);
    expect(other).toMatchObject({ label: 'cli', lastUsedAt: null });
    expect(JSON.stringify(json)).not.toContain(cli.token);
    const stored = await db.token.findMany({ select: { hash: true } });
    for (const { hash } of stored) expect(JSON.stringify(json)).not.toContain(hash);
  });

  it('leaves out expired tokens', async () => {
    await signIn('carol');
    const fresh = await signIn('carol', 'web');
    const before = await list(fresh.token);
    const oldId = before.json.tokens.find((t: { current: boolean }) => !t.current).id;
    await db.token.update({ where: { id: oldId }, data: { expiresAt: new Date(Date.now() - 1) } });
    const after = await list(fresh.token);
    expect(after.json.tokens.map((t: { id: string }) => t.id)).not.toContain(oldId);
    expect(after.json.tokens).toHaveLength(1);
  });
});

describe('API token idle expiry', () => {
  it('ends a CLI token 90 days after its last use', async () => {
    const { token, user } = await signIn('idle');
    const day = 86_400_000;
    await db.token.updateMany({
      where: { userId: user.id },
      data: { lastUsedAt: new Date(Date.now() - 89 * day), expiresAt: new Date(Date.now() + day) },
    });
    expect((await call(meRoute, 'GET', '/v1/me', { token })).status).toBe(200);
    const renewed = await db.token.findFirstOrThrow({ where: { userId: user.id } });
    expect(renewed.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 89 * day);
    await db.token.updateMany({
      where: { userId: user.id },
      data: { lastUsedAt: new Date(Date.now() - 90 * day - 1000), expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await call(meRoute, 'GET', '/v1/me', { token })).status).toBe(401);
  });
});

describe('DELETE /v1/tokens/{id}', () => {
  it('revokes one of your own tokens, which then stops working', async () => {
    const cli = await signIn('dave', 'cli');
    const web = await signIn('dave', 'web');
    const { json } = await list(web.token);
    const target = json.tokens.find((t: { current: boolean }) => !t.current);
    expect((await revoke(web.token, target.id)).status).toBe(204);
    expect((await call(meRoute, 'GET', '/v1/me', { token: cli.token })).status).toBe(401);
    expect((await revoke(web.token, target.id)).status).toBe(404);
  });

  it("answers 404 for someone else's token", async () => {
    const victim = await signIn('erin', 'cli');
    const attacker = await signIn('mallory', 'cli');
    const { json } = await list(victim.token);
    const revoked = await revoke(attacker.token, json.tokens[0].id);
    expect(revoked.status).toBe(404);
    expect(revoked.json.error.code).toBe('not_found');
    expect((await call(meRoute, 'GET', '/v1/me', { token: victim.token })).status).toBe(200);
  });
});

describe('DELETE /v1/tokens/current', () => {
  it('revokes the API token making the request', async () => {
    const { token } = await signIn('frank', 'cli');
    expect((await call(revokeCurrentRoute, 'DELETE', '/v1/tokens/current', { token })).status).toBe(204);
    expect((await call(meRoute, 'GET', '/v1/me', { token })).status).toBe(401);
  });

  it('answers 400 with a web session, which keeps working', async () => {
    const { token } = await signIn('grace', 'web');
    const refused = await call(revokeCurrentRoute, 'DELETE', '/v1/tokens/current', { token });
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('bad_request');
    expect((await call(meRoute, 'GET', '/v1/me', { token })).status).toBe(200);
  });
});
