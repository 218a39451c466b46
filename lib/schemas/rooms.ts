// Rooms and live spaces: one set of endpoints built twice, under /v1/rooms and
// /v1/live-spaces, over one implementation (lib/rooms). A live space is a room
// without AI suggestions, with images and its own plan limit.
import { z } from 'zod';
import { handle, slug, text, timestamp, user } from './common.ts';
import { app, buildBody } from './apps.ts';
import { endpoint } from './endpoint.ts';

export const roomRole = z.enum(['owner', 'editor', 'commenter', 'viewer']);
export const linkAccess = z.enum(['none', 'viewer', 'commenter', 'editor']);

const id = text().min(1).max(100);
const count = z.number().int().min(0);

export const roomCaps = z
  .object({ view: z.boolean(), comment: z.boolean(), edit: z.boolean(), manage: z.boolean() })
  .meta({ id: 'RoomCaps', description: 'What the caller may do here: view and sync; chat and report; edit the document and sources; manage settings and people.' });

const roomWorkspace = z.object({ id: z.string(), slug, name: z.string() });

const roomFields = {
  id: z.string(),
  name: z.string(),
  icon: z.string().nullable(),
  description: z.string().nullable(),
  template: z.string().nullable(),
  workspace: roomWorkspace,
  role: roomRole.meta({ description: "The caller's role." }),
  caps: roomCaps,
  linkAccess: linkAccess.meta({ description: 'What any signed-in person who has the link may do.' }),
  latestVersion: z.number().int().meta({ description: 'How many times the document has been stored.' }),
  lastActivity: z.string().nullable().meta({ description: 'What happened last, e.g. "edited by @ada".' }),
  lastActivityAt: timestamp.nullable(),
  appCount: count,
  path: z.string().meta({ description: 'The page of the web app, e.g. /rooms/rm_….' }),
  url: z.string(),
  createdAt: timestamp,
};

export const room = z.object({ ...roomFields, aiSuggest: z.boolean() }).meta({ id: 'Room' });
export const liveSpace = z.object(roomFields).meta({ id: 'LiveSpace', description: 'A room without AI suggestions, with image blocks.' });

export const roomMember = z
  .object({
    user,
    role: roomRole,
    via: z.enum(['room', 'workspace']).meta({ description: 'room: added to the room; workspace: from the workspace role alone.' }),
  })
  .meta({ id: 'RoomMember' });

export const roomInvite = z
  .object({
    id: z.string(),
    email: z.string(),
    role: roomRole,
    createdBy: user.nullable(),
    createdAt: timestamp,
    expiresAt: timestamp,
    url: z.string().optional().meta({ description: 'The link, only in the answer that creates it; the server keeps a hash.' }),
    emailed: z.boolean().optional().meta({ description: 'Whether the link was e-mailed (needs SMTP); only at creation.' }),
  })
  .meta({ id: 'RoomInvite' });

export const source = z
  .object({
    id: z.string(),
    name: z.string(),
    contentType: z.string(),
    size: z.number(),
    status: z.enum(['ready', 'unreadable']),
    summary: z.string().nullable(),
    extractedChars: z.number(),
    hiddenFromAi: z.boolean(),
    uploadedBy: user.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'Source' });

export const liveSpaceImage = z
  .object({ id: z.string(), url: z.string(), contentType: z.string(), size: z.number().int() })
  .meta({ id: 'LiveSpaceImage' });

const invitesIn = z
  .array(z.object({ to: text().min(1).max(254), role: roomRole.exclude(['owner']).default('editor') }))
  .max(50)
  .default([]);

const createBody = {
  workspace: slug,
  name: text().min(1).max(100).optional(),
  prompt: text({ multiline: true })
    .max(4000)
    .optional()
    .meta({ description: 'What it is for: quoted at the top of the first page (and its name when none is given). Rooms on a server with an AI service also get an AI draft of the first page under the quote.' }),
  template: text().max(40).optional(),
  invites: invitesIn,
  build: z.boolean().default(false),
};

const patchBody = {
  name: text().min(1).max(100).optional(),
  icon: text().max(16).nullable().optional(),
  description: text({ multiline: true }).max(1000).nullable().optional(),
  linkAccess: linkAccess.optional(),
};

export const TICKET_SECONDS = 60;

const pageId = text().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be a page id');

export const pageSnapshot = z
  .object({
    id: z.string(),
    pageId: z.string(),
    title: z.string().meta({ description: "The page's title then." }),
    reason: z.enum(['edits', 'named', 'restore']).meta({ description: 'edits: taken after a few minutes of editing; named: asked for; restore: the page just before a restore.' }),
    name: z.string().nullable(),
    editors: z.array(user).meta({ description: "Who changed the page since its previous snapshot (as far as the server saw: a named or restore snapshot names none)." }),
    createdBy: user.nullable().meta({ description: 'Who asked for it (named and restore snapshots).' }),
    createdAt: timestamp,
  })
  .meta({ id: 'PageSnapshot', description: 'A page as it was at a moment. Kept 30 days; older ones are thinned to one per page and week.' });
export type PageSnapshot = z.infer<typeof pageSnapshot>;

export const pageDiff = z
  .object({
    from: z.string(),
    to: z.string(),
    added: count.meta({ description: 'Lines with text added (blank lines are not counted).' }),
    removed: count.meta({ description: 'Lines with text removed.' }),
    lines: z.array(z.object({ op: z.enum(['same', 'add', 'remove']), text: z.string() })).meta({ description: "The two versions' Markdown, line by line." }),
  })
  .meta({ id: 'PageDiff' });
export type PageDiff = z.infer<typeof pageDiff>;

const version = text().min(1).max(100).meta({ description: 'A snapshot id, or `current` for the page as it is now.' });

function roomEndpoints(prefix: '/v1/rooms' | '/v1/live-spaces', acceptPath: string, tag: string, noun: string) {
  const live = prefix === '/v1/live-spaces';
  const record = live ? liveSpace : room;
  const p = { id };
  return {
    list: endpoint({
      method: 'GET',
      path: prefix,
      summary: `${noun}s the caller can view`,
      tag,
      auth: 'user',
      query: z.object({ workspace: slug.optional() }),
      response: live ? z.object({ liveSpaces: z.array(liveSpace) }) : z.object({ rooms: z.array(room) }),
    }),
    create: endpoint({
      method: 'POST',
      path: prefix,
      summary: `Create a ${noun.toLowerCase()}`,
      tag,
      auth: 'user',
      body: z.object(live ? createBody : { ...createBody, aiSuggest: z.boolean().optional() }),
      response: record,
      errors: [403, 404],
    }),
    get: endpoint({ method: 'GET', path: `${prefix}/{id}`, summary: `A ${noun.toLowerCase()}`, tag, auth: 'user', params: z.object(p), response: record, errors: [404] }),
    patch: endpoint({
      method: 'PATCH',
      path: `${prefix}/{id}`,
      summary: `Change a ${noun.toLowerCase()}'s settings`,
      tag,
      auth: 'user',
      params: z.object(p),
      body: z.object(live ? patchBody : { ...patchBody, aiSuggest: z.boolean().optional() }),
      response: record,
      errors: [403, 404],
    }),
    delete: endpoint({ method: 'DELETE', path: `${prefix}/{id}`, summary: `Delete a ${noun.toLowerCase()}`, tag, auth: 'user', params: z.object(p), response: null, errors: [403, 404] }),
    markdown: endpoint({
      method: 'GET',
      path: `${prefix}/{id}/markdown`,
      summary: 'Every page of the document as Markdown',
      tag,
      auth: 'user',
      params: z.object(p),
      response: null,
      status: 200,
      errors: [404],
    }),
    reportMessage: endpoint({
      method: 'POST',
      path: `${prefix}/{id}/messages/{messageId}/report`,
      summary: 'Report a chat message (a copy is kept)',
      tag,
      auth: 'user',
      params: z.object({ ...p, messageId: id }),
      body: z.object({ reason: text({ multiline: true }).max(1000).optional() }),
      response: null,
      errors: [404],
    }),
    deleteMessage: endpoint({
      method: 'DELETE',
      path: `${prefix}/{id}/messages/{messageId}`,
      summary: 'Delete a chat message (its author, or manage)',
      tag,
      auth: 'user',
      params: z.object({ ...p, messageId: id }),
      response: null,
      errors: [403, 404],
    }),
    ticket: endpoint({
      method: 'POST',
      path: `${prefix}/{id}/ticket`,
      summary: 'A short-lived single-use ticket for the WebSocket',
      tag,
      auth: 'user',
      params: z.object(p),
      response: z.object({ url: z.string().meta({ description: 'The socket URL with its ticket.' }), expiresAt: timestamp }),
      errors: [404],
    }),
    people: endpoint({
      method: 'GET',
      path: `${prefix}/{id}/people`,
      summary: 'Members, and pending invites for managers',
      tag,
      auth: 'user',
      params: z.object(p),
      response: z.object({ members: z.array(roomMember), invites: z.array(roomInvite) }),
      errors: [404],
    }),
    addPerson: endpoint({
      method: 'POST',
      path: `${prefix}/{id}/people`,
      summary: 'Add a member by handle, or invite by e-mail',
      tag,
      auth: 'user',
      params: z.object(p),
      body: z.object({ to: text().min(1).max(254), role: roomRole.exclude(['owner']).default('editor') }),
      response: z.object({ member: roomMember.nullable(), invite: roomInvite.nullable() }),
      errors: [400, 403, 404],
    }),
    changeRole: endpoint({
      method: 'PATCH',
      path: `${prefix}/{id}/people/{handle}`,
      summary: "Change a member's role",
      tag,
      auth: 'user',
      params: z.object({ ...p, handle }),
      body: z.object({ role: roomRole }),
      response: null,
      errors: [403, 404],
    }),
    removePerson: endpoint({
      method: 'DELETE',
      path: `${prefix}/{id}/people/{handle}`,
      summary: 'Remove a member, or leave',
      tag,
      auth: 'user',
      params: z.object({ ...p, handle }),
      response: null,
      errors: [403, 404],
    }),
    revokeInvite: endpoint({
      method: 'DELETE',
      path: `${prefix}/{id}/invites/{inviteId}`,
      summary: 'Revoke a pending invite',
      tag,
      auth: 'user',
      params: z.object({ ...p, inviteId: id }),
      response: null,
      errors: [403, 404],
    }),
    acceptInvite: endpoint({
      method: 'POST',
      path: acceptPath,
      summary: 'Accept an invite link (single use)',
      tag,
      auth: 'user',
      body: z.object({ token: text().min(1).max(200) }),
      response: live ? z.object({ liveSpaceId: z.string() }) : z.object({ roomId: z.string() }),
      errors: [404, 410],
    }),
    mention: endpoint({
      method: 'POST',
      path: `${prefix}/{id}/mentions`,
      summary: 'Tell one of its people they were mentioned on a page: a notification, e-mailed as they chose when SMTP is set; once per person and page every few minutes',
      tag,
      auth: 'user',
      params: z.object(p),
      body: z.object({ handle, pageId: text().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be a page id') }),
      response: z.object({
        notified: z.boolean().meta({ description: 'Whether a notification was added to their inbox now (not when they were told of this page in the last few minutes, nor for oneself).' }),
        mailed: z.boolean().meta({ description: 'Whether an e-mail was queued for the person (sent by a background worker, retried while the mail server refuses it).' }),
      }),
      errors: [403, 404, 429],
    }),
    sources: endpoint({
      method: 'GET',
      path: `${prefix}/{id}/sources`,
      summary: 'Files attached',
      tag,
      auth: 'user',
      params: z.object(p),
      response: z.object({ sources: z.array(source) }),
      errors: [404],
    }),
    upload: endpoint({
      method: 'POST',
      path: `${prefix}/{id}/sources`,
      summary: 'Attach a file (multipart, field "file")',
      tag,
      auth: 'user',
      params: z.object(p),
      response: source,
      errors: [400, 403, 404, 413],
    }),
    sourceRaw: endpoint({
      method: 'GET',
      path: `${prefix}/{id}/sources/{sourceId}/raw`,
      summary: "A source's bytes",
      tag,
      auth: 'user',
      params: z.object({ ...p, sourceId: id }),
      response: null,
      status: 200,
      errors: [404],
    }),
    patchSource: endpoint({
      method: 'PATCH',
      path: `${prefix}/{id}/sources/{sourceId}`,
      summary: 'Hide a source from AI, or show it',
      tag,
      auth: 'user',
      params: z.object({ ...p, sourceId: id }),
      body: z.object({ hiddenFromAi: z.boolean() }),
      response: source,
      errors: [403, 404],
    }),
    build: endpoint({
      method: 'POST',
      path: `${prefix}/{id}/build`,
      summary: 'Build an app from a page, or rebuild the preview of the app named by appId',
      tag,
      auth: 'user',
      params: z.object(p),
      body: buildBody,
      response: z.object({ app }),
      errors: [403, 404, 409],
    }),
    history: endpoint({
      method: 'GET',
      path: `${prefix}/{id}/pages/{pageId}/history`,
      summary: "A page's snapshots, newest first (at most 200)",
      tag,
      auth: 'user',
      params: z.object({ ...p, pageId }),
      response: z.object({ snapshots: z.array(pageSnapshot) }),
      errors: [404],
    }),
    nameSnapshot: endpoint({
      method: 'POST',
      path: `${prefix}/{id}/pages/{pageId}/history`,
      summary: 'Keep the page as it is now, with a name',
      tag,
      auth: 'user',
      params: z.object({ ...p, pageId }),
      body: z.object({ name: text().min(1).max(100) }),
      response: pageSnapshot,
      status: 201,
      errors: [403, 404, 429],
    }),
    historyDiff: endpoint({
      method: 'GET',
      path: `${prefix}/{id}/pages/{pageId}/history/diff`,
      summary: 'What changed between two versions of a page, as a line diff of their Markdown',
      tag,
      auth: 'user',
      params: z.object({ ...p, pageId }),
      query: z.object({ from: version, to: version.default('current') }),
      response: pageDiff,
      errors: [404],
    }),
    restore: endpoint({
      method: 'POST',
      path: `${prefix}/{id}/pages/{pageId}/history/{snapshotId}/restore`,
      summary: 'Make the page hold a snapshot again, as a new change everyone connected sees (the page as it was is kept first)',
      tag,
      auth: 'user',
      params: z.object({ ...p, pageId, snapshotId: id }),
      // before: the page just before the restore; restoring it undoes the restore.
      response: z.object({ restored: pageSnapshot, before: pageSnapshot }),
      errors: [403, 404, 409, 429],
    }),
    deleteSource: endpoint({
      method: 'DELETE',
      path: `${prefix}/{id}/sources/{sourceId}`,
      summary: 'Delete a source (edit, or its uploader)',
      tag,
      auth: 'user',
      params: z.object({ ...p, sourceId: id }),
      response: null,
      errors: [403, 404],
    }),
  };
}

export const roomsApi = roomEndpoints('/v1/rooms', '/v1/room-invites/accept', 'Rooms', 'Room');

export const liveSpacesApi = {
  ...roomEndpoints('/v1/live-spaces', '/v1/live-space-invites/accept', 'Live spaces', 'Live space'),
  image: endpoint({
    method: 'POST',
    path: '/v1/live-spaces/{id}/images',
    summary: 'Store an image for an image block (raw bytes)',
    tag: 'Live spaces',
    auth: 'user',
    params: z.object({ id }),
    response: liveSpaceImage,
    errors: [400, 403, 404, 413],
  }),
  // Not in the spec's list: the image block needs a way to show what it stored.
  imageRaw: endpoint({
    method: 'GET',
    path: '/v1/live-spaces/{id}/images/{imageId}',
    summary: "An image's bytes",
    tag: 'Live spaces',
    auth: 'user',
    params: z.object({ id, imageId: id }),
    response: null,
    status: 200,
    errors: [404],
  }),
};

export type Room = z.infer<typeof room>;
export type LiveSpace = z.infer<typeof liveSpace>;
export type RoomMember = z.infer<typeof roomMember>;
export type RoomInvite = z.infer<typeof roomInvite>;
export type Source = z.infer<typeof source>;
