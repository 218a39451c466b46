// Custom domains: a space's site served at a host name of its owners
// (docs.example.com). An admin adds the name and is told a DNS record to
// create, `_atrium-challenge.<hostname> TXT atrium-verify=<token>`; verifying
// looks that record up, which proves control of the name's DNS, not merely that
// it reaches Atrium (anyone can point a name, or a wildcard, at us). Any number
// of spaces may claim a name; a claim not verified within a week expires; the
// verified claim holds the name for one space on the instance. Requests for a
// verified name are the space's site, with the same rules and access as its
// own host; verified names are read per request (a unique-key lookup), so a
// removal stops serving at once on every node. TLS stays with the proxy in
// front: `GET /v1/domains/check` is the `ask` of Caddy's on-demand TLS
// (docs/deploy.md).
import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import type { SignedInCaller } from '../core/caller.ts';
import { config } from '../config.ts';
import { db, Prisma } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';
import { rateLimit } from '../core/rate-limit.ts';
import type { SpaceDomain } from '../schemas/spaces.ts';
import { contentHostOf } from './hosts.ts';
import { spaceWith } from './spaces.ts';

const CHALLENGE_LABEL = '_atrium-challenge';
const RECORD_PREFIX = 'atrium-verify=';
/** How long an unverified claim lasts; then the record it names is worthless and the claim is forgotten. */
export const CLAIM_LIFETIME_MS = 7 * 24 * 3600_000;
/** How long one DNS query waits for an answer, and how many times it is sent. */
const DNS_TIMEOUT_MS = 2000;
const DNS_TRIES = 2;

/** The DNS servers TXT records are looked up at (DNS_SERVERS; empty: the system's). Tests point it at their own stub. */
export const dnsLookup: { servers: string[] } = { servers: config.dnsServers };

// Each verification is a few DNS queries: enough for someone waiting on their DNS, not a query pump.
const verifications = rateLimit({ name: 'domain-verify', points: 30, duration: 600, message: 'Too many domain verifications; wait a few minutes.' });

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

type ClaimRow = { hostname: string; token: string; verifiedAt: Date | null; createdAt: Date };

const challengeName = (hostname: string) => `${CHALLENGE_LABEL}.${hostname}`;
const expiresAt = (row: ClaimRow) => new Date(row.createdAt.getTime() + CLAIM_LIFETIME_MS);
const expiredBefore = () => new Date(Date.now() - CLAIM_LIFETIME_MS);

const domainOut = (row: ClaimRow): SpaceDomain => ({
  hostname: row.hostname,
  status: row.verifiedAt ? 'active' : 'pending',
  url: `https://${row.hostname}/`,
  verification: { token: row.token, record: { type: 'TXT', name: challengeName(row.hostname), value: `${RECORD_PREFIX}${row.token}` } },
  verifiedAt: row.verifiedAt?.getTime() ?? null,
  expiresAt: row.verifiedAt ? null : expiresAt(row).getTime(),
  createdAt: row.createdAt.getTime(),
});

/** Forgets claims that expired unverified (of one space, or of one name), so that they neither list nor hold anything. */
async function forgetExpiredClaims(where: { spaceId: string } | { hostname: string }): Promise<void> {
  await db.spaceDomain.deleteMany({ where: { ...where, verifiedAt: null, createdAt: { lt: expiredBefore() } } });
}

const notOnSpace = (hostname: string) => new ApiError('not_found', `No domain ${hostname.slice(0, 100)} on this space (a claim not verified within 7 days expires; add it again).`);
const takenElsewhere = (hostname: string) =>
  new ApiError('conflict', `${hostname} is verified for another space on this Atrium; it serves that space until its admins remove it there.`);

export async function listDomains(caller: SignedInCaller, id: string): Promise<SpaceDomain[]> {
  const { space } = await spaceWith(caller, id, 'admin');
  await forgetExpiredClaims({ spaceId: space.id });
  const rows = await db.spaceDomain.findMany({ where: { spaceId: space.id }, orderBy: { hostname: 'asc' } });
  return rows.map(domainOut);
}

export async function addDomain(caller: SignedInCaller, id: string, given: string): Promise<SpaceDomain> {
  const { space } = await spaceWith(caller, id, 'admin');
  const hostname = given.trim().toLowerCase().replace(/\.$/, '');
  const problem = refusal(hostname);
  if (problem) throw new ApiError('bad_request', problem);
  await forgetExpiredClaims({ hostname });
  const holder = await db.spaceDomain.findUnique({ where: { verifiedHostname: hostname }, select: { spaceId: true } });
  if (holder && holder.spaceId !== space.id) throw takenElsewhere(hostname);
  try {
    const row = await db.spaceDomain.create({ data: { hostname, spaceId: space.id, token: randomBytes(16).toString('hex'), createdById: caller.actor.user.id } });
    return domainOut(row);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw new ApiError('conflict', `${hostname} is already added to this space.`);
    throw error;
  }
}

export async function removeDomain(caller: SignedInCaller, id: string, hostname: string): Promise<void> {
  const { space } = await spaceWith(caller, id, 'admin');
  const { count } = await db.spaceDomain.deleteMany({ where: { hostname, spaceId: space.id } });
  if (!count) throw notOnSpace(hostname);
}

/** A TXT value as shown back to the caller: printable, and short. */
const shown = (value: string) => JSON.stringify(value.replace(/[^\x20-\x7e]/g, '?').slice(0, 80));

/**
 * Looks up the claim's record: null when it is there, else what was looked up
 * and what was found. Only DNS answers are described, never a server's
 * address or a socket error.
 */
async function missingRecord(hostname: string, token: string): Promise<string | null> {
  const name = challengeName(hostname);
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: DNS_TRIES });
  if (dnsLookup.servers.length) resolver.setServers(dnsLookup.servers);
  let values: string[];
  try {
    values = (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND') return `${name} does not exist in DNS`;
    if (code === 'ENODATA') return `${name} has no TXT record`;
    if (code === 'ETIMEOUT' || code === 'ECONNREFUSED') return `no DNS server answered for ${name}`;
    return `the DNS lookup of ${name} failed (${code ?? 'no answer'})`;
  }
  if (values.includes(`${RECORD_PREFIX}${token}`)) return null;
  const ours = values.filter((value) => value.startsWith(RECORD_PREFIX));
  return ours.length
    ? `${name} has ${ours.slice(0, 3).map(shown).join(', ')}, which is not this claim's record`
    : `${name} has ${values.length} TXT record${values.length === 1 ? '' : 's'}, none of them ${RECORD_PREFIX}…`;
}

export async function verifyDomain(caller: SignedInCaller, id: string, hostname: string): Promise<SpaceDomain> {
  const { space } = await spaceWith(caller, id, 'admin');
  await forgetExpiredClaims({ spaceId: space.id });
  const row = await db.spaceDomain.findUnique({ where: { spaceId_hostname: { spaceId: space.id, hostname } } });
  if (!row) throw notOnSpace(hostname);
  if (row.verifiedAt) return domainOut(row);
  const holder = await db.spaceDomain.findUnique({ where: { verifiedHostname: hostname }, select: { spaceId: true } });
  if (holder) throw takenElsewhere(hostname);
  await verifications.consume(caller.actor.user.id);
  const problem = await missingRecord(hostname, row.token);
  if (problem !== null) {
    throw new ApiError('conflict', `${hostname} is not verified yet: ${problem}. Create a TXT record ${challengeName(hostname)} with the value ${RECORD_PREFIX}${row.token} and try again (DNS changes can take a few minutes).`);
  }
  try {
    return domainOut(await db.spaceDomain.update({ where: { spaceId_hostname: { spaceId: space.id, hostname } }, data: { verifiedAt: new Date(), verifiedHostname: hostname } }));
  } catch (error) {
    // Another space's claim was verified meanwhile.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw takenElsewhere(hostname);
    throw error;
  }
}

/** The space a verified custom domain serves, or null (names neither the app's nor under the content domain). */
export async function domainOf(hostname: string): Promise<{ spaceId: string } | null> {
  if (!HOSTNAME.test(hostname)) return null;
  return db.spaceDomain.findUnique({ where: { verifiedHostname: hostname }, select: { spaceId: true } });
}

/** Caddy's on-demand TLS `ask`: may a certificate be had for this name? Only for a verified domain of a space with a published version. */
export async function mayServe(hostname: string): Promise<boolean> {
  const name = hostname.toLowerCase();
  if (!HOSTNAME.test(name)) return false;
  const row = await db.spaceDomain.findUnique({ where: { verifiedHostname: name }, select: { space: { select: { latestVersion: true } } } });
  return (row?.space.latestVersion ?? 0) > 0;
}
