import { afterEach, describe, expect, it } from 'vitest';
import { POST as devLoginRoute } from '@/app/v1/auth/dev-login/route.ts';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { call } from '../helpers.ts';

const login = (body: unknown) => call(devLoginRoute, 'POST', '/v1/auth/dev-login', { body });

describe('POST /v1/auth/dev-login', () => {
  afterEach(() => {
    config.devAuth = true;
  });

  it('answers 404 unless DEV_AUTH is true', async () => {
    config.devAuth = false;
    const { status, json } = await login({ handle: 'alice' });
    expect(status).toBe(404);
    expect(json.error.code).toBe('not_found');
    expect(await db.user.count()).toBe(0);
  });

  it('creates the user with a personal workspace owned by them, and an API token by default', async () => {
    const { status, json } = await login({ handle: 'alice', name: 'Alice' });
    expect(status).toBe(200);
    expect(json.token).toMatch(/^atr_[A-Za-z0-9_-]{43}$/);
    expect(json.user).toEqual({ id: expect.any(String), handle: 'alice', name: 'Alice' });
    const workspace = await db.workspace.findUniqueOrThrow({ where: { slug: 'alice' }, include: { memberships: true } });
    expect(workspace).toMatchObject({ name: 'alice', personal: true });
    expect(workspace.memberships).toMatchObject([{ userId: json.user.id, role: 'owner', status: 'accepted' }]);
    const token = await db.token.findFirstOrThrow({ where: { userId: json.user.id } });
    expect(token).toMatchObject({ kind: 'api', label: 'cli' });
  });

  it('signs an existing user in again, with a new token each time', async () => {
    const first = await login({ handle: 'bob' });
    const second = await login({ handle: 'bob', label: 'web' });
    expect(second.json.user.id).toBe(first.json.user.id);
    expect(second.json.token).not.toBe(first.json.token);
    expect(second.json.token.startsWith('atrs_')).toBe(true);
    expect(await db.workspace.count({ where: { slug: 'bob' } })).toBe(1);
  });

  it('rejects bad input with bad_request naming the field', async () => {
    const cases: [unknown, string][] = [
      [{}, 'body.handle'],
      [{ handle: 'Not-Lowercase' }, 'body.handle'],
      [{ handle: '-edge' }, 'body.handle'],
      [{ handle: 'a'.repeat(40) }, 'body.handle'],
      [{ handle: 'ok', name: 'x'.repeat(101) }, 'body.name'],
      [{ handle: 'ok', label: 'desktop' }, 'body.label'],
    ];
    for (const [body, field] of cases) {
      const { status, json } = await login(body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(json.error.code).toBe('bad_request');
      expect(json.error.message.startsWith(field), json.error.message).toBe(true);
    }
  });

  it('answers bad_request for a body that is not JSON', async () => {
    const { status, json } = await call(devLoginRoute, 'POST', '/v1/auth/dev-login', { rawBody: '{"handle":', headers: { 'content-type': 'application/json' } });
    expect(status).toBe(400);
    expect(json.error).toEqual({ code: 'bad_request', message: 'The request body is not valid JSON.' });
  });

  it('refuses reserved handles', async () => {
    const { status, json } = await login({ handle: 'v1' });
    expect(status).toBe(400);
    expect(json.error.message).toContain('reserved');
  });

  it('answers 409 when a workspace already holds the handle as its slug', async () => {
    await db.workspace.create({ data: { id: 'ws_acme', slug: 'acme', name: 'Acme' } });
    const { status, json } = await login({ handle: 'acme' });
    expect(status).toBe(409);
    expect(json.error.code).toBe('conflict');
  });
});
