// Command-line sign-in as a device flow (RFC 8628, as `gh auth login` does it):
// the CLI starts a request and polls with its secret device code; a person
// signed in to the web app looks the request up by its short user code and
// approves or denies it. The token is issued when the approved request is
// polled, so it is never stored in clear anywhere, and handed out once.
import type { Caller, SignedInCaller } from '../core/caller.ts';
import { randomInt } from 'node:crypto';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import type { CliSignIn, Prisma } from '../db/generated/client.ts';
import { clientAddress, clientLocation } from '../core/client.ts';
import { ApiError } from '../core/errors.ts';
import { newId } from '../ids.ts';
import type { CliPollResult, CliSignInRequest, CliStartResult } from '../schemas/auth.ts';
import { hashSecret, newSecret } from '../secrets.ts';
import type { Actor } from '../core/caller.ts';
import { issueToken } from './tokens.ts';

/** Seconds a request stays open. */
export const CLI_SIGN_IN_LIFETIME = 15 * 60;
/** Seconds between polls; each too-early poll adds SLOW_DOWN_STEP (RFC 8628 §3.5). */
export const POLL_INTERVAL = 5;
export const SLOW_DOWN_STEP = 5;
/** A poll this much early still counts as on time (timers and networks jitter). */
const POLL_GRACE_MS = 500;
export const PENDING_PER_ADDRESS = 10;
export const PENDING_OVERALL = 500;
/** Finished requests are kept this long, so late polls still learn what happened. */
const KEEP_FINISHED_MS = 24 * 60 * 60 * 1000;

// RFC 8628 §6.1: 20 consonants (no vowels, so no words; no look-alikes such as
// 0/O or 1/I), 8 characters shown as XXXX-XXXX: 20^8 ≈ 2.6·10^10 codes.
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;
// Serialises cli/start across instances while the pending counts are checked.
const START_LOCK = 8628;

function newUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** "bcdf ghjk", "BCDFGHJK" and "BCDF-GHJK" are the same code; null when it cannot be one. */
export function normalizeUserCode(input: string): string | null {
  const letters = input.toUpperCase().replace(/[\s-]/g, '');
  if (letters.length !== USER_CODE_LENGTH || [...letters].some((c) => !USER_CODE_ALPHABET.includes(c))) return null;
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

function isExpired(request: Pick<CliSignIn, 'expiresAt'>, now = Date.now()): boolean {
  return request.expiresAt.getTime() <= now;
}

export async function startCliSignIn({ client }: Caller, label: string | undefined): Promise<CliStartResult> {
  const ip = client.address;
  const location = client.location;
  const userAgent = client.userAgent;
  const deviceCode = newSecret('deviceCode');
  const now = new Date();
  const userCode = await db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${START_LOCK})`);
    await tx.cliSignIn.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - KEEP_FINISHED_MS) } } });
    const pending = { status: 'pending' as const, expiresAt: { gt: now } };
    // Full until the first of the waiting sign-ins expires: that is when to try again.
    const untilOneExpires = async (where: Prisma.CliSignInWhereInput) => {
      const first = await tx.cliSignIn.findFirst({ where, orderBy: { expiresAt: 'asc' }, select: { expiresAt: true } });
      return { 'retry-after': String(Math.max(1, Math.ceil(((first?.expiresAt.getTime() ?? now.getTime()) - now.getTime()) / 1000))) };
    };
    if ((await tx.cliSignIn.count({ where: pending })) >= PENDING_OVERALL) {
      throw new ApiError('rate_limited', 'Too many command-line sign-ins are waiting for approval; try again in a few minutes.', await untilOneExpires(pending));
    }
    if ((await tx.cliSignIn.count({ where: { ...pending, ip } })) >= PENDING_PER_ADDRESS) {
      throw new ApiError('rate_limited', `There are already ${PENDING_PER_ADDRESS} sign-ins waiting for approval from your address; approve, deny or let them expire first.`, await untilOneExpires({ ...pending, ip }));
    }
    let code = newUserCode();
    while (await tx.cliSignIn.findUnique({ where: { userCode: code }, select: { id: true } })) code = newUserCode();
    await tx.cliSignIn.create({
      data: {
        id: newId('cliSignIn'),
        userCode: code,
        deviceCodeHash: hashSecret(deviceCode),
        label: label?.trim() || null,
        ip,
        city: location?.city ?? null,
        country: location?.country ?? null,
        userAgent,
        interval: POLL_INTERVAL,
        createdAt: now,
        expiresAt: new Date(now.getTime() + CLI_SIGN_IN_LIFETIME * 1000),
      },
    });
    return code;
  });
  return {
    deviceCode,
    userCode,
    verificationUrl: `${config.publicUrl}/device?code=${userCode}`,
    expiresIn: CLI_SIGN_IN_LIFETIME,
    interval: POLL_INTERVAL,
  };
}

function view(request: CliSignIn): CliSignInRequest {
  const status = request.status === 'pending' && isExpired(request) ? 'expired' : request.status;
  return {
    userCode: request.userCode,
    label: request.label,
    createdAt: request.createdAt.getTime(),
    expiresAt: request.expiresAt.getTime(),
    status,
    requestedFrom: request.city || request.country ? { city: request.city, country: request.country } : null,
    userAgent: request.userAgent,
  };
}

/** The request behind a user code. Once decided, only the person who decided it still sees it. */
async function findForApprover(actor: Actor, userCode: string): Promise<CliSignIn> {
  const code = normalizeUserCode(userCode);
  const request = code ? await db.cliSignIn.findUnique({ where: { userCode: code } }) : null;
  if (!request || (request.decidedById && request.decidedById !== actor.user.id)) {
    throw new ApiError('not_found', 'There is no sign-in request with that code; check the code your terminal shows.');
  }
  return request;
}

export async function getCliSignIn({ actor }: SignedInCaller, userCode: string): Promise<CliSignInRequest> {
  return view(await findForApprover(actor, userCode));
}

export async function decideCliSignIn({ actor }: SignedInCaller, userCode: string, approve: boolean): Promise<void> {
  const request = await findForApprover(actor, userCode);
  const now = new Date();
  const { count } = await db.cliSignIn.updateMany({
    where: { id: request.id, status: 'pending', expiresAt: { gt: now } },
    data: { status: approve ? 'approved' : 'denied', decidedById: actor.user.id, decidedAt: now },
  });
  if (count === 1) return;
  const current = await db.cliSignIn.findUniqueOrThrow({ where: { id: request.id } });
  if (current.status === 'pending') throw new ApiError('gone', 'This sign-in request has expired; start a new one from the command line.');
  throw new ApiError('conflict', `This sign-in request was already ${current.status}.`);
}

/**
 * What the CLI learns when it polls. Pending: `{status: "pending"}` (202), or
 * 429 when it polls sooner than its interval, which then grows by 5 seconds.
 * Approved: the token, exactly once; a later poll is 410. Denied: 403.
 * Expired: 410. Finished requests are removed a day after they expire; after
 * that, as for a code never issued, 404.
 */
export async function pollCliSignIn(deviceCode: string): Promise<CliPollResult> {
  const request = await db.cliSignIn.findUnique({ where: { deviceCodeHash: hashSecret(deviceCode) } });
  if (!request) throw new ApiError('not_found', 'Unknown device code; start a new sign-in.');
  if (request.status === 'denied') throw new ApiError('forbidden', 'The sign-in request was denied.');
  if (request.status === 'approved' && request.pickedUpAt) {
    throw new ApiError('gone', 'This sign-in request has already handed out its token; start a new sign-in.');
  }
  if (isExpired(request)) throw new ApiError('gone', 'The sign-in request expired before it was approved; start a new one.');
  if (request.status === 'approved') return pickUp(request);

  const now = new Date();
  const onTimeIfPolledBefore = new Date(now.getTime() - request.interval * 1000 + POLL_GRACE_MS);
  const { count } = await db.cliSignIn.updateMany({
    where: { id: request.id, OR: [{ lastPolledAt: null }, { lastPolledAt: { lte: onTimeIfPolledBefore } }] },
    data: { lastPolledAt: now },
  });
  if (count === 0) {
    const slowed = await db.cliSignIn.update({
      where: { id: request.id },
      data: { interval: { increment: SLOW_DOWN_STEP }, lastPolledAt: now },
      select: { interval: true },
    });
    throw new ApiError('rate_limited', `Polling too fast: wait ${slowed.interval} seconds between polls.`, {
      'retry-after': String(slowed.interval),
    });
  }
  return { status: 'pending' };
}

async function pickUp(request: CliSignIn): Promise<CliPollResult> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.cliSignIn.updateMany({
      where: { id: request.id, status: 'approved', pickedUpAt: null },
      data: { pickedUpAt: new Date() },
    });
    if (count === 0) throw new ApiError('gone', 'This sign-in request has already handed out its token; start a new sign-in.');
    const user = await tx.user.findUniqueOrThrow({ where: { id: request.decidedById! }, select: { id: true, handle: true, name: true } });
    const token = await issueToken(user.id, 'api', request.label ?? 'cli', { client: tx });
    return { status: 'approved' as const, token, user };
  });
}
