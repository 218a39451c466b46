// The handlers of rooms and live spaces, defined once per operation. A live
// space is a room of another kind under its own prefix: each route file under
// app/v1/rooms and app/v1/live-spaces mounts its kind's handlers, e.g.
// `export const { GET, POST } = roomRoutes.people;`.
import { buildApp } from '@/lib/apps/apps.ts';
import type { RoomKind } from '@/lib/db/generated/client.ts';
import { route } from '@/server/http/route.ts';
import { diffHistory, listHistory, nameSnapshot, restoreSnapshot } from '@/lib/rooms/history.ts';
import { mentionInRoom } from '@/lib/rooms/mentions.ts';
import { deleteMessage, reportMessage } from '@/lib/rooms/messages.ts';
import { addPeople, changeRole, listPeople, removePerson, revokeInvite } from '@/lib/rooms/people.ts';
import { createRoom, deleteRoom, getRoom, issueTicket, listRooms, patchRoom, roomMarkdown } from '@/lib/rooms/rooms.ts';
import { deleteSource, listSources, patchSource, sourceRaw, uploadSource } from '@/lib/rooms/sources.ts';
import { liveSpacesApi, roomsApi } from '@/lib/schemas/rooms.ts';

function handlersOf(kind: RoomKind) {
  // The two tables have the same operations, typed alike (a record is a room or a live space).
  const api = kind === 'room' ? roomsApi : liveSpacesApi;
  return {
    collection: {
      // The list's key depends on the kind, which the answer's type cannot follow.
      GET: route(api.list, async ({ caller, query }) => ({ [kind === 'room' ? 'rooms' : 'liveSpaces']: await listRooms(caller, kind, query.workspace) }) as never),
      POST: route(api.create, async ({ caller, body }) => {
        const room = await createRoom(caller, kind, body);
        if (!body.build) return room;
        // build: the first page becomes an app's preview (its build's outcome is on the app);
        // the room is read again since the build is its latest activity.
        await buildApp(caller, kind, room.id, {});
        return getRoom(caller, kind, room.id);
      }),
    },
    room: {
      GET: route(api.get, async ({ caller, params }) => getRoom(caller, kind, params.id)),
      PATCH: route(api.patch, async ({ caller, params, body }) => patchRoom(caller, kind, params.id, body)),
      DELETE: route(api.delete, async ({ caller, params }) => deleteRoom(caller, kind, params.id)),
    },
    ticket: { POST: route(api.ticket, async ({ caller, params }) => issueTicket(caller, kind, params.id)) },
    markdown: {
      GET: route(api.markdown, async ({ caller, params }) =>
        new Response(await roomMarkdown(caller, kind, params.id), { headers: { 'content-type': 'text/markdown; charset=utf-8', 'x-content-type-options': 'nosniff' } }),
      ),
    },
    people: {
      GET: route(api.people, async ({ caller, params }) => listPeople(caller, kind, params.id)),
      POST: route(api.addPerson, async ({ caller, params, body }) => addPeople(caller, kind, params.id, body)),
    },
    person: {
      PATCH: route(api.changeRole, async ({ caller, params, body }) => changeRole(caller, kind, params.id, params.handle, body.role)),
      DELETE: route(api.removePerson, async ({ caller, params }) => removePerson(caller, kind, params.id, params.handle)),
    },
    mention: { POST: route(api.mention, async ({ caller, params, body }) => mentionInRoom(caller, kind, params.id, body)) },
    invite: { DELETE: route(api.revokeInvite, async ({ caller, params }) => revokeInvite(caller, kind, params.id, params.inviteId)) },
    message: { DELETE: route(api.deleteMessage, async ({ caller, params }) => deleteMessage(caller, kind, params.id, params.messageId)) },
    report: { POST: route(api.reportMessage, async ({ caller, params, body }) => reportMessage(caller, kind, params.id, params.messageId, body.reason)) },
    sources: {
      GET: route(api.sources, async ({ caller, params }) => listSources(caller, kind, params.id)),
      POST: route(api.upload, async ({ caller, params, rawBody }) => uploadSource(caller, kind, params.id, rawBody)),
    },
    source: {
      PATCH: route(api.patchSource, async ({ caller, params, body }) => patchSource(caller, kind, params.id, params.sourceId, body.hiddenFromAi)),
      DELETE: route(api.deleteSource, async ({ caller, params }) => deleteSource(caller, kind, params.id, params.sourceId)),
    },
    sourceRaw: { GET: route(api.sourceRaw, async ({ caller, params }) => sourceRaw(caller, kind, params.id, params.sourceId)) },
    history: {
      GET: route(api.history, async ({ caller, params }) => ({ snapshots: await listHistory(caller, kind, params.id, params.pageId) })),
      POST: route(api.nameSnapshot, async ({ caller, params, body }) => nameSnapshot(caller, kind, params.id, params.pageId, body.name)),
    },
    historyDiff: { GET: route(api.historyDiff, async ({ caller, params, query }) => diffHistory(caller, kind, params.id, params.pageId, query.from, query.to)) },
    restore: { POST: route(api.restore, async ({ caller, params }) => restoreSnapshot(caller, kind, params.id, params.pageId, params.snapshotId)) },
    build: { POST: route(api.build, async ({ caller, params, body }) => buildApp(caller, kind, params.id, body)) },
  };
}

export const roomRoutes = handlersOf('room');
export const liveSpaceRoutes = handlersOf('live');
