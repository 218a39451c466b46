// Comments on the files of a space (docs/decisions.md, "Comments"): a thread
// is a root comment anchored to a quote of one file of one version; replies
// attach to the root. Who may do what is asked of lib/access; every change
// moves the space's commentsUpdatedAt, which clients poll through the head.
import { createHash } from 'node:crypto';
import type { Caller } from '../core/caller.ts';
import { requirePermission, type SpacePermissions } from '../access/spaces.ts';
import { checkGuestName, cleanGuestName, DELETED_USER } from '../accounts/guest-names.ts';
import { db, type Prisma } from '../db/client.ts';
import { addressKey } from '../core/client.ts';
import { ApiError } from '../core/errors.ts';
import { rateLimit } from '../core/rate-limit.ts';
import { newId } from '../ids.ts';
import { deliverNotifications, eventNotifications, queueNotifications, type NewNotification } from '../notifications/notifications.ts';
import { queueWebhookEvent } from '../audit/webhook-events.ts';
import type { z } from 'zod';
import type { comment as commentSchema, revision as revisionSchema, thread as threadSchema } from '../schemas/comments.ts';
import { aliasVersion } from '../spaces/aliases.ts';
import { normalizePath } from '../spaces/paths.ts';
import { versionFileText } from '../spaces/publishing.ts';
import { loadSpace, type LoadedSpace } from '../spaces/spaces.ts';
import { locate, locateCached, type Placed, type Selector } from './anchoring.ts';
import { mentionedViewers } from './mentions.ts';

type CommentOut = z.input<typeof commentSchema>;
type ThreadOut = z.input<typeof threadSchema>;
type RevisionOut = z.input<typeof revisionSchema>;
export type Via = 'web' | 'cli' | 'api' | 'guest';
export type GuestInput = { name?: string; key: string };

export const GUEST_COMMENTS_PER_WINDOW = 20;
export const GUEST_COMMENT_WINDOW_SECONDS = 600;

const guestLimit = rateLimit({
  name: 'guest-comment',
  points: GUEST_COMMENTS_PER_WINDOW,
  duration: GUEST_COMMENT_WINDOW_SECONDS,
  message: `Guests may post ${GUEST_COMMENTS_PER_WINDOW} comments per ${GUEST_COMMENT_WINDOW_SECONDS / 60} minutes from one address; wait a few minutes or sign in.`,
});

const people = { select: { id: true, handle: true, name: true } } as const;
const commentInclude = { author: people, resolvedBy: people, editedBy: people } satisfies Prisma.CommentInclude;
type CommentRow = Prisma.CommentGetPayload<{ include: typeof commentInclude }>;
type Person = { id: string; handle: string; name: string | null } | null;

/** Where an action comes from: a web session, the CLI's token, or a guest. */
export function viaOf(caller: Caller): Via {
  if (!caller.actor) return 'guest';
  // Every API token is made by the CLI sign-in today; 'api' is kept for tokens made otherwise.
  return caller.actor.token.kind === 'web' ? 'web' : 'cli';
}

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

function userOut(user: Person) {
  return user
    ? { kind: 'user' as const, id: user.id, handle: user.handle, name: user.name || user.handle }
    : { kind: 'deleted' as const, id: null, handle: null, name: DELETED_USER };
}

function authorOut(row: CommentRow) {
  if (row.author) return userOut(row.author);
  if (row.guestName !== null) return { kind: 'guest' as const, id: null, handle: null, name: row.guestName };
  return userOut(null);
}

type StoredAnchor = { exact: string; prefix: string; suffix: string; start: number; end: number };

function commentOut(row: CommentRow, anchor: CommentOut['anchor'] = storedAnchor(row)): CommentOut {
  return {
    id: row.id,
    spaceId: row.spaceId,
    path: row.path,
    versionNumber: row.versionNumber,
    parentId: row.parentId,
    author: authorOut(row),
    guestName: row.guestName,
    origin: (row.origin as CommentOut['origin']) ?? null,
    body: row.body,
    quote: row.quote,
    anchor,
    via: row.via as Via | null,
    alias: row.alias,
    resolvedAt: row.resolvedAt?.getTime() ?? null,
    resolvedBy: row.resolvedAt ? userOut(row.resolvedBy) : null,
    resolvedVia: row.resolvedAt ? (row.resolvedVia as Via) : null,
    editedAt: row.editedAt?.getTime() ?? null,
    editedBy: row.editedAt ? (row.editedVia === 'guest' ? authorOut(row) : userOut(row.editedBy)) : null,
    editedVia: row.editedAt ? (row.editedVia as Via) : null,
    revisions: row.revisionCount,
    createdAt: row.createdAt.getTime(),
  };
}

function storedAnchor(row: CommentRow): CommentOut['anchor'] {
  const a = row.anchor as StoredAnchor | null;
  return a ? { ...a, status: 'anchored', versionNumber: row.versionNumber } : null;
}

const touchSpace = (spaceId: string) => db.space.update({ where: { id: spaceId }, data: { commentsUpdatedAt: new Date() } });

// --- reading ----------------------------------------------------------------

export type ThreadFilter = { path?: string; status: 'open' | 'resolved' | 'all'; v?: number };

export async function listThreads(caller: Caller, spaceId: string, filter: ThreadFilter): Promise<{ threads: ThreadOut[] }> {
  const { space } = await spaceWithView(caller, spaceId);
  const target = filter.v ?? space.latestVersion;
  if (filter.v !== undefined && filter.v > space.latestVersion) throw new ApiError('bad_request', `query.v: the space has no version ${filter.v} (latest: ${space.latestVersion}).`);
  const roots = await db.comment.findMany({
    where: {
      spaceId: space.id,
      parentId: null,
      ...(filter.path ? { path: normalizePath(filter.path) } : {}),
      ...(filter.status === 'open' ? { resolvedAt: null } : filter.status === 'resolved' ? { resolvedAt: { not: null } } : {}),
    },
    include: { ...commentInclude, replies: { include: commentInclude, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: 5000,
  });
  // Each anchored file is read once, in the version the threads are shown in.
  const texts = new Map<string, Promise<{ sha256: string; text: string | null } | null>>();
  const fileText = (path: string) => {
    if (!texts.has(path)) texts.set(path, target ? versionFileText(space.id, target, path).then((f) => f && { sha256: f.entry.sha256, text: f.text }) : Promise.resolve(null));
    return texts.get(path)!;
  };
  const threads = await Promise.all(
    roots.map(async (root) => {
      let anchor = storedAnchor(root);
      const stored = root.anchor as StoredAnchor | null;
      if (stored && target !== root.versionNumber) {
        const file = await fileText(root.path);
        const placed = file?.text ? locateCached(file.sha256, file.text, stored) : null;
        anchor = placed ? { ...placed, status: 'anchored', versionNumber: target } : { ...stored, status: 'orphaned', versionNumber: root.versionNumber };
      }
      return { ...commentOut(root, anchor), replies: root.replies.map((r) => commentOut(r)) };
    }),
  );
  return { threads };
}

export async function commentRevisions(caller: Caller, id: string): Promise<{ revisions: RevisionOut[] }> {
  const { row } = await loadComment(caller, id);
  const revisions = await db.commentRevision.findMany({ where: { commentId: row.id }, orderBy: [{ replacedAt: 'asc' }, { id: 'asc' }] });
  return { revisions: revisions.map((r) => ({ body: r.body, writtenAt: r.writtenAt.getTime(), replacedAt: r.replacedAt.getTime() })) };
}

// --- writing ----------------------------------------------------------------

export type CreateInput = {
  path: string;
  body: string;
  quote?: string;
  anchor?: Selector;
  parentId?: string;
  versionNumber?: number;
  alias?: string;
  guest?: GuestInput;
};

export async function createComment(caller: Caller, spaceId: string, input: CreateInput): Promise<CommentOut> {
  const loaded = await loadSpace(caller, spaceId);
  const { space, permissions } = loaded;
  let guest: { name: string; keyHash: string } | null = null;
  if (caller.actor) {
    if (input.guest) throw new ApiError('bad_request', 'body.guest: only for people who are not signed in; you comment as yourself.');
    requirePermission(space, permissions, 'comment');
  } else {
    // A guest must first be able to see the space (404, or 401 to unlock it).
    requirePermission(space, permissions, 'view');
    if (!space.guestComments) throw new ApiError('unauthorized', 'Sign in to comment: this space does not take comments from guests.');
    requirePermission(space, permissions, 'comment');
    if (!input.guest) throw new ApiError('bad_request', 'body.guest: required to comment without signing in ({ name, key }).');
    if (input.guest.name === undefined) throw new ApiError('bad_request', 'body.guest.name: required for a new comment.');
    guest = { name: cleanGuestName(input.guest.name), keyHash: hashKey(input.guest.key) };
  }

  const path = normalizePath(input.path);
  const viaAlias = input.alias === undefined ? null : await aliasVersion(space.id, input.alias);
  if (input.alias !== undefined && viaAlias === null) throw new ApiError('bad_request', `body.alias: no alias "${input.alias}" in this space.`);
  let parentId: string | null = null;
  let threadAuthorId: string | null = null;
  let versionNumber: number;
  let placed: Placed | null = null;
  let quote: string | null = null;
  if (input.parentId !== undefined) {
    const parent = await db.comment.findFirst({ where: { id: input.parentId, spaceId: space.id }, select: { id: true, parentId: true, path: true, versionNumber: true, authorId: true, parent: { select: { authorId: true } } } });
    if (!parent) throw new ApiError('bad_request', `body.parentId: no comment ${input.parentId} in this space.`);
    // A reply to a reply joins the thread of its root, as on GitHub.
    parentId = parent.parentId ?? parent.id;
    if (path !== parent.path) throw new ApiError('bad_request', `body.path: a reply is on the file of its thread (${parent.path}).`);
    if (input.quote !== undefined || input.anchor !== undefined) throw new ApiError('bad_request', 'body.anchor: replies are not anchored; quote in the thread instead.');
    if (input.versionNumber !== undefined && input.versionNumber !== parent.versionNumber) {
      throw new ApiError('bad_request', `body.versionNumber: a reply belongs to its thread's version (${parent.versionNumber}).`);
    }
    versionNumber = parent.versionNumber;
    threadAuthorId = parent.parent ? parent.parent.authorId : parent.authorId;
  } else {
    if (viaAlias !== null && input.versionNumber !== undefined && input.versionNumber !== viaAlias) {
      throw new ApiError('bad_request', `body.versionNumber: the alias "${input.alias}" serves version ${viaAlias}.`);
    }
    versionNumber = input.versionNumber ?? viaAlias ?? space.latestVersion;
    if (versionNumber < 1 || versionNumber > space.latestVersion) {
      throw new ApiError('bad_request', space.latestVersion ? `body.versionNumber: the space has no version ${versionNumber} (latest: ${space.latestVersion}).` : 'body.path: the space has no published version yet.');
    }
    const file = await versionFileText(space.id, versionNumber, path);
    if (!file) throw new ApiError('bad_request', `body.path: no file ${path} in version ${versionNumber}.`);
    const selector: Selector | null = input.anchor ?? (input.quote !== undefined ? { exact: input.quote } : null);
    if (selector) {
      const field = input.anchor ? 'body.anchor' : 'body.quote';
      if (file.text === null) throw new ApiError('bad_request', `${field}: ${path} is not a text file; comment on it without a quote.`);
      if (selector.start !== undefined && selector.end !== undefined && selector.end < selector.start) throw new ApiError('bad_request', 'body.anchor.end: must not be before start.');
      placed = locate(file.text, selector);
      if (!placed) throw new ApiError('bad_request', `${field}: the quoted text is not in ${path} at version ${versionNumber}.`);
      quote = input.quote ?? selector.exact;
    }
  }

  if (guest) {
    await guestLimit.consume(addressKey(caller.client.address));
    // After the limit: the check scans every handle.
    await checkGuestName(guest.name, 'body.guest.name');
  }
  const via = viaOf(caller);
  const origin = guest ? { country: caller.client.location?.country ?? null, userAgent: caller.client.userAgent?.slice(0, 300) ?? null } : undefined;
  const commentId = newId('comment');
  // Guests' comments notify nobody, so strangers cannot use a public space to reach members.
  const notifications = caller.actor
    ? eventNotifications(caller.actor.user.id, [
        ...(await mentionedViewers(loaded, caller.actor, input.body)).map((userId): NewNotification => ({ userId, kind: 'mention', workspaceId: space.workspaceId, spaceId: space.id, commentId })),
        ...(threadAuthorId ? [{ userId: threadAuthorId, kind: 'reply' as const, workspaceId: space.workspaceId, spaceId: space.id, commentId }] : []),
      ])
    : [];
  const [row] = await db.$transaction([
    db.comment.create({
      data: {
        id: commentId,
        spaceId: space.id,
        parentId,
        path,
        versionNumber,
        authorId: caller.actor?.user.id ?? null,
        guestName: guest?.name ?? null,
        guestKeyHash: guest?.keyHash ?? null,
        origin,
        body: input.body,
        quote,
        anchor: placed ?? undefined,
        via,
        alias: input.alias ?? null,
      },
      include: commentInclude,
    }),
    touchSpace(space.id),
    queueWebhookEvent(db, space.workspaceId, 'comment.created', {
      comment: { id: commentId, spaceId: space.id, path, parentId, versionNumber, alias: input.alias ?? null, body: input.body, author: caller.actor ? { id: caller.actor.user.id, handle: caller.actor.user.handle } : null, guestName: guest?.name ?? null },
    }),
    queueNotifications(db, notifications),
  ]);
  await deliverNotifications(notifications);
  return commentOut(row);
}

export async function editComment(caller: Caller, id: string, input: { body: string; guest?: GuestInput }): Promise<CommentOut> {
  const { row, space } = await loadComment(caller, id);
  const asGuest = isGuestAuthor(row, caller, input.guest);
  if (!isUserAuthor(row, caller) && !asGuest) throw new ApiError('forbidden', 'Only its author may edit a comment (a guest with the key of the browser that wrote it).');
  if (asGuest && !space.guestComments) throw new ApiError('forbidden', 'This space no longer takes comments from guests, so they cannot be edited; they can still be deleted.');
  if (input.body === row.body) return commentOut(row);
  const now = new Date();
  const [, updated] = await db.$transaction([
    db.commentRevision.create({ data: { id: newId('commentRevision'), commentId: row.id, body: row.body, writtenAt: row.editedAt ?? row.createdAt, replacedAt: now } }),
    db.comment.update({
      where: { id: row.id },
      data: { body: input.body, editedAt: now, editedById: caller.actor?.user.id ?? null, editedVia: viaOf(caller), revisionCount: { increment: 1 } },
      include: commentInclude,
    }),
    touchSpace(space.id),
  ]);
  return commentOut(updated);
}

export async function deleteComment(caller: Caller, id: string, guest: GuestInput | undefined): Promise<void> {
  const { row, space, permissions } = await loadComment(caller, id);
  if (!isUserAuthor(row, caller) && !isGuestAuthor(row, caller, guest) && !permissions.push) {
    if (!caller.actor && !guest) throw new ApiError('unauthorized', 'Sign in to delete comments, or send the guest key of the comment.');
    throw new ApiError('forbidden', 'Only its author (a guest with their key) or someone who can push to the space may delete a comment.');
  }
  // Replies go with their root (ON DELETE CASCADE), revisions with their comment.
  await db.$transaction([db.comment.deleteMany({ where: { id: row.id } }), touchSpace(space.id)]);
}

export async function setResolved(caller: Caller, id: string, resolved: boolean): Promise<CommentOut> {
  const { row, space, permissions } = await loadComment(caller, id);
  // Resolution belongs to the thread: a reply's id stands for its root.
  const root = row.parentId ? await db.comment.findUniqueOrThrow({ where: { id: row.parentId }, include: commentInclude }) : row;
  if (!caller.actor) throw new ApiError('unauthorized', 'Sign in to resolve threads.');
  if (root.authorId !== caller.actor.user.id && !permissions.push) {
    throw new ApiError('forbidden', `Only the thread's author or someone who can push to the space may ${resolved ? 'resolve' : 'reopen'} it.`);
  }
  if ((root.resolvedAt !== null) === resolved) return commentOut(root);
  const notifications =
    resolved && root.authorId ? eventNotifications(caller.actor.user.id, [{ userId: root.authorId, kind: 'resolved', workspaceId: space.workspaceId, spaceId: space.id, commentId: root.id }]) : [];
  const [updated] = await db.$transaction([
    db.comment.update({
      where: { id: root.id },
      data: resolved ? { resolvedAt: new Date(), resolvedById: caller.actor.user.id, resolvedVia: viaOf(caller) } : { resolvedAt: null, resolvedById: null, resolvedVia: null },
      include: commentInclude,
    }),
    touchSpace(space.id),
    ...(resolved ? [queueWebhookEvent(db, space.workspaceId, 'comment.resolved', { comment: { id: root.id, spaceId: space.id, path: root.path }, by: { id: caller.actor.user.id, handle: caller.actor.user.handle } })] : []),
    queueNotifications(db, notifications),
  ]);
  await deliverNotifications(notifications);
  return commentOut(updated);
}

// --- helpers ----------------------------------------------------------------

function isUserAuthor(row: CommentRow, caller: Caller): boolean {
  return row.authorId !== null && caller.actor?.user.id === row.authorId;
}

function isGuestAuthor(row: CommentRow, caller: Caller, guest: GuestInput | undefined): boolean {
  return !caller.actor && row.guestKeyHash !== null && guest !== undefined && hashKey(guest.key) === row.guestKeyHash;
}

async function spaceWithView(caller: Caller, spaceId: string): Promise<LoadedSpace> {
  const loaded = await loadSpace(caller, spaceId);
  requirePermission(loaded.space, loaded.permissions, 'view');
  return loaded;
}

/** The comment and its space, when the caller may see the space; not_found otherwise. */
async function loadComment(caller: Caller, id: string): Promise<{ row: CommentRow; space: LoadedSpace['space']; permissions: SpacePermissions }> {
  const row = await db.comment.findUnique({ where: { id }, include: commentInclude });
  const missing = () => new ApiError('not_found', `No comment ${id}, or you cannot see it.`);
  if (!row) throw missing();
  let loaded: LoadedSpace;
  try {
    loaded = await spaceWithView(caller, row.spaceId);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') throw missing();
    throw error;
  }
  return { row, space: loaded.space, permissions: loaded.permissions };
}
