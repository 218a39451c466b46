// Web sign-in through next-auth (Auth.js v5): e-mail links, GitHub and Google.
// next-auth runs the provider handshakes; the session it creates is stored by
// the adapter below as one of our own web sessions (a Token of kind "web",
// only its hash kept) and carried in our session cookie (SESSION_COOKIE), so the /v1
// routes, pages and sign-out all see one kind of session.
import type { Adapter, AdapterSession, AdapterUser } from 'next-auth/adapters';
import type { NextAuthConfig } from 'next-auth';
import GitHub from 'next-auth/providers/github';
import Google from 'next-auth/providers/google';
import { createUserWithFreeHandle } from '../accounts/users.ts';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import { log } from '../log.ts';
import { hashSecret, newSecret } from '../secrets.ts';
import { sendSignInLink } from './email.ts';
import { serverSecret } from './server-secret.ts';
import { actorForSecret, endSession, issueToken, SESSION_COOKIE, TOKEN_IDLE_LIFETIME } from './tokens.ts';

/** Minutes an e-mailed sign-in link works (once). */
export const EMAIL_LINK_MINUTES = 30;

export const AUTH_BASE_PATH = '/api/auth';

type UserRow = { id: string; email: string | null; name: string | null };

function adapterUser(user: UserRow): AdapterUser {
  return { id: user.id, email: user.email ?? '', emailVerified: null, name: user.name };
}

const userSelect = { id: true, email: true, name: true } as const;

async function sessionAndUser(sessionToken: string) {
  const actor = await actorForSecret(sessionToken);
  if (!actor || actor.token.kind !== 'web') return null;
  const token = await db.token.findUniqueOrThrow({ where: { id: actor.token.id }, select: { expiresAt: true, user: { select: userSelect } } });
  const session: AdapterSession = { sessionToken, userId: actor.user.id, expires: token.expiresAt ?? new Date(Date.now() + TOKEN_IDLE_LIFETIME.web) };
  return { session, user: adapterUser(token.user) };
}

export const adapter: Adapter = {
  async createUser(data) {
    // The OAuth providers below pass their login as `handleHint`.
    const hint = (data as AdapterUser & WithHandleHint).handleHint;
    const email = data.email || null;
    const user = await createUserWithFreeHandle({ hints: [hint, email?.split('@')[0], data.name], name: data.name ?? null, email });
    return adapterUser({ ...user, email });
  },
  async getUser(id) {
    const user = await db.user.findUnique({ where: { id }, select: userSelect });
    return user && adapterUser(user);
  },
  async getUserByEmail(email) {
    const user = await db.user.findUnique({ where: { email }, select: userSelect });
    return user && adapterUser(user);
  },
  async getUserByAccount({ provider, providerAccountId }) {
    const account = await db.oAuthAccount.findUnique({
      where: { provider_providerAccountId: { provider, providerAccountId } },
      select: { user: { select: userSelect } },
    });
    return account && adapterUser(account.user);
  },
  async updateUser({ id }) {
    // Nothing a provider says changes the account after it was created.
    return adapterUser(await db.user.findUniqueOrThrow({ where: { id }, select: userSelect }));
  },
  async linkAccount({ provider, providerAccountId, userId }) {
    await db.oAuthAccount.create({ data: { provider, providerAccountId, userId } });
  },
  async createSession({ sessionToken, userId }) {
    await issueToken(userId, 'web', 'web', { secret: sessionToken });
    return { sessionToken, userId, expires: new Date(Date.now() + TOKEN_IDLE_LIFETIME.web) };
  },
  getSessionAndUser: sessionAndUser,
  async updateSession({ sessionToken }) {
    // actorForSecret already slides the expiry as the session is used.
    return (await sessionAndUser(sessionToken))?.session ?? null;
  },
  async deleteSession(sessionToken) {
    await endSession(sessionToken);
  },
  async createVerificationToken({ identifier, token, expires }) {
    // `token` arrives already hashed (with the secret) by next-auth; we hash it once more, as every secret.
    await db.emailSignIn.create({ data: { tokenHash: hashSecret(token), email: identifier, expiresAt: expires } });
    return { identifier, token, expires };
  },
  async useVerificationToken({ identifier, token }) {
    // Single use: whoever deletes the row first used it (next-auth then checks the expiry).
    const tokenHash = hashSecret(token);
    const link = await db.emailSignIn.findUnique({ where: { tokenHash } });
    if (!link || link.email !== identifier) return null;
    const { count } = await db.emailSignIn.deleteMany({ where: { tokenHash } });
    return count === 1 ? { identifier: link.email, token, expires: link.expiresAt } : null;
  },
};

type WithHandleHint = { id: string; name?: string | null; email?: string | null; handleHint?: string };

function githubProvider(client: NonNullable<typeof config.github>) {
  return GitHub({
    ...client,
    profile: (profile): WithHandleHint => ({ id: String(profile.id), name: profile.name ?? profile.login, email: profile.email, handleHint: profile.login }),
  });
}

function googleProvider(client: NonNullable<typeof config.google>) {
  return Google({
    ...client,
    profile: (profile): WithHandleHint => ({ id: profile.sub, name: profile.name, email: profile.email, handleHint: profile.email?.split('@')[0] }),
  });
}

/** The sign-in methods this server offers besides e-mail links, for the sign-in page. */
export function signInMethods() {
  return {
    github: config.github !== null,
    google: config.google !== null,
    dev: config.devAuth,
  };
}

// Over https next-auth names its handshake cookies `__Secure-`, which another
// host under our registrable domain may still set with a Domain: a tossed
// state or PKCE cookie would finish a sign-in as the person who planted it.
// `__Host-` (next-auth's default options: Secure, Path=/, no Domain) cannot be.
const hostOnlyHandshakeCookies: NonNullable<NextAuthConfig['cookies']> = {
  callbackUrl: { name: '__Host-authjs.callback-url' },
  csrfToken: { name: '__Host-authjs.csrf-token' },
  pkceCodeVerifier: { name: '__Host-authjs.pkce.code_verifier' },
  state: { name: '__Host-authjs.state' },
  nonce: { name: '__Host-authjs.nonce' },
  webauthnChallenge: { name: '__Host-authjs.challenge' },
};

export async function authConfig(): Promise<NextAuthConfig> {
  const secure = config.publicUrl.startsWith('https:');
  return {
    secret: config.authSecret ?? (await serverSecret('auth')),
    basePath: AUTH_BASE_PATH,
    // The route handler rebuilds every request on PUBLIC_URL, so the host is ours.
    trustHost: true,
    adapter,
    session: { strategy: 'database', maxAge: TOKEN_IDLE_LIFETIME.web / 1000, generateSessionToken: () => newSecret('webSession') },
    cookies: {
      sessionToken: { name: SESSION_COOKIE, options: { httpOnly: true, sameSite: 'lax', path: '/', secure } },
      ...(secure ? hostOnlyHandshakeCookies : {}),
    },
    pages: { signIn: '/signin', error: '/signin', verifyRequest: '/signin/check-email' },
    providers: [
      {
        id: 'email',
        type: 'email',
        name: 'E-mail',
        maxAge: EMAIL_LINK_MINUTES * 60,
        // The e-mail points at a page with a button rather than at the
        // one-time link itself, so mail scanners that open links do not use it up.
        sendVerificationRequest: async ({ identifier, url, expires }) => {
          const callback = new URL(url);
          const confirm = new URL('/signin/confirm', config.publicUrl);
          for (const name of ['token', 'email', 'callbackUrl']) confirm.searchParams.set(name, callback.searchParams.get(name) ?? '');
          await sendSignInLink(identifier, confirm.toString(), expires);
        },
      },
      ...(config.github ? [githubProvider(config.github)] : []),
      ...(config.google ? [googleProvider(config.google)] : []),
    ],
    logger: {
      error: (error) => log.error('sign-in error', { error: error.name, message: error.message }),
      warn: (code) => log.warn('sign-in warning', { code }),
      debug: () => {},
    },
  };
}
