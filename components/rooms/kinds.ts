// What differs between rooms and live spaces in the web app: the words, the
// URL prefix and the endpoint set. Both endpoint sets have the same shape for
// everything the room page calls (people, sources, messages, tickets), so the
// live-space set is typed as the rooms one.
import { liveSpacesApi, roomsApi } from '@/lib/schemas/rooms.ts';

export type RoomKindName = 'room' | 'live';

export const KIND = {
  room: { noun: 'Room', plural: 'Rooms', prefix: 'rooms', api: roomsApi },
  live: { noun: 'Live space', plural: 'Live spaces', prefix: 'live-spaces', api: liveSpacesApi as unknown as typeof roomsApi },
} as const;
