// Custom domains: a space's site served at a host name of its owners
// (docs.example.com). An admin adds the name and gets a token; once the name
// points at Atrium, verifying fetches
//   http://<hostname>/.well-known/atrium-verify/<token>
// which any Atrium node answers with the token for a name it holds, so the
// check proves the name reaches this instance. Then requests for that Host are
// the space's site, with the same rules and access as its own host. Names are
// read per request (a primary-key lookup), so a removal stops serving at once
// on every node. TLS stays with the proxy in front: `GET /v1/domains/check` is
// the `ask` of Caddy's on-demand TLS (docs/deploy.md).
import { request } from 'node:http';
import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { SignedInCaller } from '../access/caller.ts';
import { config } from '../config.ts';
import { db, Prisma } from '../db/client.ts';
import { ApiError } from '../http/errors.ts';
import type { SpaceDomain } from '../schemas/spaces.ts';
import { contentHostOf } from './hosts.ts';
import { spaceWith } from './spaces.ts';

export const VERIFY_PATH = '/.well-known/atrium-verify/';
/** How long the check waits for the name to answer, and how much of the answer it reads. */
const CHECK_TIMEOUT_MS = 5000;
const CHECK_MAX_BYTES = 256;

/**
 * How the check reaches a name: port 80 through the system's resolver. Tests
 * point names at their own server here, as DNS would.
 */
export const domainCheck: { port: number; lookup: LookupFunction } = { port: 80, lookup: dnsLookup };

const HOSTNAME = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** Why `hostname` cannot be a custom domain, or null. */
function refusal(hostname: string): string | null {
  if (!HOSTNAME.test(hostname)) return `"${hostname.slice(0, 100)}" is not a host name such as docs.example.com (lowercase, with a dot, no port or path).`;
  if (hostname === new URL(config.publicUrl).hostname) return "That is this Atrium's own address.";
  if (contentHostOf(hostname) || (config.contentDomain && (hostname === config.contentDomain.hostname || hostname.endsWith(`.${config.contentDomain.hostname}`)))) {
    return 'Names under the content domain are Atrium\u2019s own; use a domain of yours.';
  }
  if (hostname.endsWith('.localhost')) return 'A .localhost name only ever reaches the visitor\u2019s own machine.';
  return null;
}

const domainOut = (row: { hostname: string; token: string; verifiedAt: Date | null; createdAt: Date }): SpaceDomain => ({
  hostname: row.hostname,
  status: row.verifiedAt ? 'active' : 'pending',
  url: `https://${row.hostname}/`,
  verification: { token: row.token, url: `http://${row.hostname}${VERIFY_PATH}${row.token}` },
  verifiedAt: row.verifiedAt?.getTime() ?? null,
  createdAt: row.createdAt.getTime(),
});

export async function listDomains(caller: SignedInCaller, id: string): Promise<SpaceDomain[]> {
  const { space } = await spaceWith(caller, id, 'admin');
  const rows = await db.spaceDomain.findMany({ where: { spaceId: space.id }, orderBy: { hostname: 'asc' } });
  return rows.map(domainOut);
}

export async function addDomain(caller: SignedInCaller, id: string, given: string): Promise<SpaceDomain> {
  const { space } = await spaceWith(caller, id, 'admin');
  const hostname = given.trim().toLowerCase().replace(/\.$/, '');
  const problem = refusal(hostname);
  if (problem) throw new ApiError('bad_request', problem);
  try {
    const row = await db.spaceDomain.create({ data: { hostname, spaceId: space.id, token: randomBytes(16).toString('hex'), createdById: caller.actor.user.id } });
    return domainOut(row);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw new ApiError('conflict', `${hostname} is already added to a space on this Atrium.`);
    throw error;
  }
}

export async function removeDomain(caller: SignedInCaller, id: string, hostname: string): Promise<void> {
  const { space } = await spaceWith(caller, id, 'admin');
  const { count } = await db.spaceDomain.deleteMany({ where: { hostname, spaceId: space.id } });
  if (!count) throw new ApiError('not_found', `No domain ${hostname.slice(0, 100)} on this space.`);
}

/**
 * Fetches the verification address through the name itself: null when it
 * answered the token, else why not. What the name answered is never repeated
 * (it may be any server the name points at, inside a private network too).
 */
function fetchToken(hostname: string, token: string): Promise<string | null> {
  return new Promise((resolve) => {
    const req = request({ host: hostname, port: domainCheck.port, path: `${VERIFY_PATH}${token}`, lookup: domainCheck.lookup, timeout: CHECK_TIMEOUT_MS, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        if (body.length > CHECK_MAX_BYTES) req.destroy();
      });
      res.on('end', () => resolve(res.statusCode !== 200 ? `status ${res.statusCode}` : body.trim() === token ? null : 'an answer that is not the token'));
      res.on('error', () => resolve('no answer'));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ENOTFOUND' ? 'the name does not resolve' : error.message));
    req.end();
  });
}

export async function verifyDomain(caller: SignedInCaller, id: string, hostname: string): Promise<SpaceDomain> {
  const { space } = await spaceWith(caller, id, 'admin');
  const row = await db.spaceDomain.findUnique({ where: { hostname } });
  if (!row || row.spaceId !== space.id) throw new ApiError('not_found', `No domain ${hostname.slice(0, 100)} on this space.`);
  if (row.verifiedAt) return domainOut(row);
  const problem = await fetchToken(hostname, row.token);
  if (problem !== null) {
    throw new ApiError(
      'conflict',
      `${hostname} does not reach this Atrium yet (http://${hostname}${VERIFY_PATH}${row.token}: ${problem.slice(0, 100)}). Point its DNS at Atrium (a CNAME or A record) and try again.`,
    );
  }
  return domainOut(await db.spaceDomain.update({ where: { hostname }, data: { verifiedAt: new Date() } }));
}

/** What a Host that is neither the app's nor under the content domain names: a space's domain (active or not), or nothing. */
export async function domainOf(hostname: string): Promise<{ spaceId: string; token: string; active: boolean } | null> {
  if (!HOSTNAME.test(hostname)) return null;
  const row = await db.spaceDomain.findUnique({ where: { hostname }, select: { spaceId: true, token: true, verifiedAt: true } });
  return row && { spaceId: row.spaceId, token: row.token, active: row.verifiedAt !== null };
}

/** Caddy's on-demand TLS `ask`: may a certificate be had for this name? Only for active custom domains. */
export async function mayServe(hostname: string): Promise<boolean> {
  return (await domainOf(hostname.toLowerCase()))?.active === true;
}
