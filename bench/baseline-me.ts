// The baseline of bench/me.ts: GET /v1/me on a bare node:http server that does
// the same work as Atrium with plain SQL over a pg.Pool, prepared once per
// connection as Atrium's are, and nothing else (no framework, no ORM, no
// validation, no request id). Atrium's throughput as a
// fraction of this one's is the cost of the framework and the ORM.
//
// Run by bench/me.ts as `node bench/baseline-me.ts` with DATABASE_URL, HOST and
// PORT set; it runs until it is sent SIGTERM.
import { createHash } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

// The pg default of 10 connections: the same as Prisma's pg adapter uses.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });

// Same rules as lib/auth/tokens.ts: a token expires after an idle lifetime,
// and its last use is recorded at most hourly.
const DAY = 24 * 60 * 60 * 1000;
const IDLE_LIFETIME = { api: 90 * DAY, web: 30 * DAY };
const LAST_USE_RESOLUTION = 60 * 60 * 1000;

type TokenRow = {
  id: string;
  kind: 'api' | 'web';
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  userId: string;
  handle: string;
  name: string | null;
  developerMode: boolean;
};

type MembershipRow = { id: string; slug: string; name: string; role: string; status: 'pending' | 'accepted' };

async function currentUser(secret: string) {
  const hash = createHash('sha256').update(secret).digest('hex');
  const { rows } = await pool.query<TokenRow>({
    name: 'token',
    text: `SELECT t.id, t.kind, t."lastUsedAt", t."expiresAt", u.id AS "userId", u.handle, u.name, u."developerMode"
       FROM "Token" t JOIN "User" u ON u.id = t."userId"
      WHERE t.hash = $1`,
    values: [hash],
  });
  const token = rows[0];
  const now = Date.now();
  if (!token || (token.expiresAt && token.expiresAt.getTime() <= now)) return null;
  if (!token.lastUsedAt || now - token.lastUsedAt.getTime() > LAST_USE_RESOLUTION) {
    await pool.query({
      name: 'last-use',
      text: 'UPDATE "Token" SET "lastUsedAt" = $2, "expiresAt" = $3 WHERE id = $1',
      values: [token.id, new Date(now), new Date(now + IDLE_LIFETIME[token.kind])],
    });
  }
  const memberships = await pool.query<MembershipRow>({
    name: 'memberships',
    text: `SELECT w.id, w.slug, w.name, m.role, m.status
       FROM "Membership" m JOIN "Workspace" w ON w.id = m."workspaceId"
      WHERE m."userId" = $1 ORDER BY m."createdAt"`,
    values: [token.userId],
  });
  const blocks = await pool.query<{ blockedId: string }>({
    name: 'blocks',
    text: 'SELECT "blockedId" FROM "UserBlock" WHERE "blockerId" = $1 ORDER BY "createdAt"',
    values: [token.userId],
  });
  const summaries = (status: MembershipRow['status']) =>
    memberships.rows.filter((m) => m.status === status).map((m) => ({ id: m.id, slug: m.slug, name: m.name, role: m.role }));
  return {
    user: { id: token.userId, handle: token.handle, name: token.name },
    workspaces: summaries('accepted'),
    invites: summaries('pending'),
    preferences: { developerMode: token.developerMode },
    blocked: blocks.rows.map((b) => b.blockedId),
  };
}

function send(response: http.ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const server = http.createServer(async (request, response) => {
  if (request.method !== 'GET' || request.url !== '/v1/me') {
    return send(response, 404, { error: { code: 'not_found', message: 'No such route.' } });
  }
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  try {
    const body = match && (await currentUser(match[1]));
    if (!body) return send(response, 401, { error: { code: 'unauthorized', message: 'Sign in first.' } });
    send(response, 200, body);
  } catch (error) {
    console.error(error);
    send(response, 500, { error: { code: 'internal_error', message: 'Something went wrong.' } });
  }
});
server.listen(Number(process.env.PORT), process.env.HOST);
