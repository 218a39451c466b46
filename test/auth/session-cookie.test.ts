// The web session cookie against cookie tossing: another host under the app's
// registrable domain (a published site) can add a cookie named like the
// session beside the real one. Over https the session is `__Host-` (no other
// host can set it); over plain http two session cookies sign nobody in.
import { NextRequest } from 'next/server';
import { afterEach, describe, expect, it } from 'vitest';
import { GET as authGet } from '@/app/api/auth/[...nextauth]/route.ts';
import { authConfig } from '@/lib/auth/web-sign-in.ts';
import { config } from '@/lib/config.ts';
import { openApiDocument } from '@/server/http/openapi.ts';
import { signIn } from '../helpers.ts';
import { rawRequest } from '../http/raw.ts';
import { request, useApiServers } from '../process-server.ts';
import { useFrontServer } from '../server.ts';

const server = useFrontServer();
const servers = useApiServers();

const me = (cookie: string) => rawRequest(server.origin, 'GET', '/v1/me', { headers: { cookie } });

describe('two session cookies in one request (plain http)', () => {
  it('sign nobody in, whichever comes first', async () => {
    const victim = await signIn('toss-victim', 'web');
    const attacker = await signIn('toss-attacker', 'web');
    expect((await me(`atrium_session=${victim.token}`)).json.user.handle).toBe('toss-victim');
    for (const cookie of [
      `atrium_session=${attacker.token}; atrium_session=${victim.token}`,
      `atrium_session=${victim.token}; atrium_session=${attacker.token}`,
      `theme=dark; atrium_session=${attacker.token};atrium_session=${victim.token}`,
      `atrium_session=${attacker.token}; atrium_session=${attacker.token}`,
    ]) {
      const answer = await me(cookie);
      expect(answer.status, cookie).toBe(401);
      expect(answer.text).not.toContain('toss-attacker');
    }
  });
});

describe('over https', () => {
  it('the session cookie is __Host-atrium_session (Secure, Path=/, no Domain), and only that name signs in', async () => {
    const api = await servers.start({ PUBLIC_URL: 'https://atrium.example.com' });
    const login = await request(api.origin, 'POST', '/v1/auth/dev-login', { body: { handle: 'https-person', label: 'web' } });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^__Host-atrium_session=atrs_[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    const secret = /^__Host-atrium_session=([^;]+)/.exec(cookie)![1];
    const signedIn = await request(api.origin, 'GET', '/v1/me', { headers: { cookie: `__Host-atrium_session=${secret}` } });
    expect(signedIn.json.user.handle).toBe('https-person');
    // A plain-named cookie, which any host under the domain could set, is not the session.
    expect((await request(api.origin, 'GET', '/v1/me', { headers: { cookie: `atrium_session=${secret}` } })).status).toBe(401);
    const openapi = openApiDocument('https://atrium.example.com') as { components: { securitySchemes: { sessionCookie: { name: string } } } };
    expect(openapi.components.securitySchemes.sessionCookie.name).toBe('__Host-atrium_session');
  });

  describe('next-auth', () => {
    const saved = config.publicUrl;
    afterEach(() => Object.assign(config, { publicUrl: saved }));

    it('names every cookie __Host- too, so no sibling host can plant a sign-in handshake', async () => {
      Object.assign(config, { publicUrl: 'https://atrium.example.com' });
      const cookies = (await authConfig()).cookies!;
      for (const [kind, cookie] of Object.entries(cookies)) {
        if (kind !== 'sessionToken') expect(cookie.name, kind).toMatch(/^__Host-authjs\./);
      }
      const csrf = await authGet(new NextRequest('https://atrium.example.com/api/auth/csrf'));
      const set = csrf.headers.getSetCookie();
      expect(set.length).toBeGreaterThan(0);
      for (const line of set) {
        expect(line).toMatch(/^__Host-/);
        expect(line).toMatch(/; Secure/);
        expect(line).toMatch(/; Path=\//);
        expect(line).not.toMatch(/Domain=/i);
      }
    });
  });
});
