// Rooms and live spaces: records, creation under the plan's limit, settings,
// deletion, the Markdown export and the WebSocket ticket. Both prefixes call
// these with their `kind`; a room asked for under the other prefix is 404.
import type { SignedInCaller } from '../core/caller.ts';
import { callerRoomRole, capsOf, grantSelect, listedRooms, roomAccess, roomNotFound } from '../access/rooms.ts';
import { workspaceAccess } from '../access/workspaces.ts';
import { limitsOf, requireUnderLimit } from '../billing/plans.ts';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import type { RoomKind, RoomLinkAccess, RoomRole } from '../db/generated/client.ts';
import { ApiError } from '../core/errors.ts';
import { newId } from '../ids.ts';
import type { LiveSpace, Room } from '../schemas/rooms.ts';
import { publishRoomEvent } from '../db/bus.ts';
import { aiLimit, draftFromPrompt } from './ai.ts';
import { documentMarkdown, documentPages, initialDocument, TEMPLATES, type Page } from './document.ts';
import { currentRoomState } from './document-store.ts';
import { roomPath } from '../core/room-paths.ts';
import { addPeople } from './people.ts';

/** How long creating a room waits for the AI draft of its prompt before starting without it. */
export const DRAFT_TIMEOUT_MS = 15_000;

const recordSelect = (userId: string) =>
  ({
    id: true,
    kind: true,
    name: true,
    icon: true,
    description: true,
    template: true,
    aiSuggest: true,
    latestVersion: true,
    lastActivity: true,
    lastActivityAt: true,
    createdAt: true,
    _count: { select: { apps: true } },
    ...grantSelect(userId).room,
    workspace: { select: { id: true, slug: true, name: true, ...grantSelect(userId).workspace } },
  }) as const;

type RecordRow = {
  id: string;
  kind: RoomKind;
  name: string;
  icon: string | null;
  description: string | null;
  template: string | null;
  linkAccess: RoomLinkAccess;
  aiSuggest: boolean;
  latestVersion: number;
  lastActivity: string | null;
  lastActivityAt: Date | null;
  createdAt: Date;
  _count: { apps: number };
  members: { role: RoomRole }[];
  workspace: { id: string; slug: string; name: string; memberships: { role: import('../db/generated/client.ts').WorkspaceRole }[] };
};

function toRecord(row: RecordRow): Room | LiveSpace {
  const role = callerRoomRole(row)!;
  const path = roomPath(row.kind, row.id);
  const record: LiveSpace = {
    id: row.id,
    name: row.name,
    icon: row.icon,
    description: row.description,
    template: row.template,
    workspace: { id: row.workspace.id, slug: row.workspace.slug, name: row.workspace.name },
    role,
    caps: capsOf(role),
    linkAccess: row.linkAccess,
    latestVersion: row.latestVersion,
    lastActivity: row.lastActivity,
    lastActivityAt: row.lastActivityAt?.getTime() ?? null,
    appCount: row._count.apps,
    path,
    url: `${config.publicUrl}${path}`,
    createdAt: row.createdAt.getTime(),
  };
  return row.kind === 'room' ? { ...record, aiSuggest: row.aiSuggest } : record;
}

async function recordOf(userId: string, id: string) {
  return toRecord(await db.room.findUniqueOrThrow({ where: { id }, select: recordSelect(userId) }));
}

/** Rooms the caller can view and finds listed (lib/access/rooms.ts, listedRooms). */
export async function listRooms({ actor }: SignedInCaller, kind: RoomKind, workspace?: string) {
  const userId = actor.user.id;
  const rows = await db.room.findMany({
    where: { kind, ...(workspace ? { workspace: { slug: workspace } } : {}), ...listedRooms(userId) },
    select: recordSelect(userId),
    orderBy: [{ lastActivityAt: { sort: 'desc', nulls: 'last' } }, { createdAt: 'desc' }],
    take: 500,
  });
  return rows.map(toRecord);
}

export async function getRoom({ actor }: SignedInCaller, kind: RoomKind, id: string) {
  await roomAccess(actor.user.id, kind, id, 'view');
  return recordOf(actor.user.id, id);
}

export type CreateRoomInput = {
  workspace: string;
  name?: string;
  prompt?: string;
  template?: string;
  invites: { to: string; role: Exclude<RoomRole, 'owner'> }[];
  aiSuggest?: boolean;
};

export async function createRoom(caller: SignedInCaller, kind: RoomKind, input: CreateRoomInput) {
  const { actor } = caller;
  if (input.template !== undefined && !TEMPLATES[input.template]) {
    throw new ApiError('bad_request', `body.template: must be one of ${Object.keys(TEMPLATES).join(', ')}.`);
  }
  // With an AI service a room's prompt is also drafted into its first page;
  // when AI is off, fails or the person is over their AI rate, the room starts
  // as it would without (the prompt quoted). Live spaces never use AI. Access
  // is checked first, so nobody without it makes this server call the service.
  let draft = null;
  if (kind === 'room' && input.prompt && config.ai) {
    await workspaceAccess(actor.user.id, input.workspace, 'edit');
    draft = await aiLimit
      .consume(actor.user.id)
      .then(() => draftFromPrompt(input.prompt!, DRAFT_TIMEOUT_MS))
      .catch(() => null);
  }
  const { state, title } = initialDocument(input.template ?? null, input.prompt ?? null, draft);
  const name = input.name ?? (input.prompt ? input.prompt.split('\n')[0].slice(0, 100).trim() || title : title);
  // The access check, the count and the insert run under the workspace row's
  // lock, so two creations racing for the last slot cannot both pass the
  // limit, and a member being removed cannot create a room they would own.
  const id = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "Workspace" WHERE slug = ${input.workspace} FOR UPDATE`;
    const { workspace } = await workspaceAccess(actor.user.id, input.workspace, 'edit', tx);
    const key = kind === 'room' ? 'rooms' : 'liveSpaces';
    if (limitsOf(workspace)[key] !== null) requireUnderLimit(workspace, key, await tx.room.count({ where: { workspaceId: workspace.id, kind } }));
    const room = await tx.room.create({
      data: {
        id: newId(kind === 'room' ? 'room' : 'liveSpace'),
        workspaceId: workspace.id,
        kind,
        name,
        template: input.template ?? null,
        aiSuggest: kind === 'room' ? (input.aiSuggest ?? false) : false,
        roomDoc: Buffer.from(state),
        createdById: actor.user.id,
        lastActivity: `created by @${actor.user.handle}`,
        lastActivityAt: new Date(),
        members: { create: { userId: actor.user.id, role: 'owner', addedById: actor.user.id } },
      },
      select: { id: true },
    });
    return room.id;
  });
  for (const invite of input.invites) await addPeople(caller, kind, id, invite);
  return recordOf(actor.user.id, id);
}

export type PatchRoomInput = { name?: string; icon?: string | null; description?: string | null; linkAccess?: RoomLinkAccess; aiSuggest?: boolean };

export async function patchRoom({ actor }: SignedInCaller, kind: RoomKind, id: string, input: PatchRoomInput) {
  await roomAccess(actor.user.id, kind, id, 'manage');
  await db.room.updateMany({
    where: { id },
    data: {
      name: input.name,
      icon: input.icon,
      description: input.description,
      linkAccess: input.linkAccess,
      aiSuggest: kind === 'room' ? input.aiSuggest : undefined,
    },
  });
  if (input.linkAccess !== undefined) await publishRoomEvent({ kind: 'access', roomId: id });
  return recordOf(actor.user.id, id);
}

export async function deleteRoom({ actor }: SignedInCaller, kind: RoomKind, id: string) {
  await roomAccess(actor.user.id, kind, id, 'manage');
  // deleteMany: of two racing deletions the second finds nothing (404), not an error.
  const deleted = await db.room.deleteMany({ where: { id } });
  if (deleted.count === 0) throw roomNotFound(kind, id);
  await publishRoomEvent({ kind: 'access', roomId: id });
}

/** The stored document as Markdown. */
export async function roomMarkdown({ actor }: SignedInCaller, kind: RoomKind, id: string): Promise<string> {
  await roomAccess(actor.user.id, kind, id, 'view');
  const [room, state] = await Promise.all([db.room.findUniqueOrThrow({ where: { id }, select: { name: true } }), currentRoomState(id)]);
  return documentMarkdown(state, room.name);
}

/** The stored document's pages (id and title), in order: what an app can be built from. */
export async function roomPages({ actor }: SignedInCaller, kind: RoomKind, id: string): Promise<Page[]> {
  await roomAccess(actor.user.id, kind, id, 'view');
  return documentPages(await currentRoomState(id));
}

// The ticket and the activity line live in their own modules, which the
// realtime server loads without this one (and its document and AI code).
export { issueTicket, redeemTicket, socketUrl, type TicketPayload } from './tickets.ts';
export { touchActivity } from './activity.ts';
