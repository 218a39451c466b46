// What differs between rooms and live spaces in the web app: the words, the
// URL prefix and the endpoint set. Both endpoint sets have the same shape for
// everything the room page calls (people, sources, messages, tickets), typed
// alike: a record is a room or a live space.
import { liveSpacesApi, roomsApi } from '@/lib/schemas/rooms.ts';

export type RoomKindName = 'room' | 'live';

export const KIND = {
  room: { noun: 'Room', plural: 'Rooms', prefix: 'rooms', api: roomsApi },
  live: { noun: 'Live space', plural: 'Live spaces', prefix: 'live-spaces', api: liveSpacesApi },
} as const;
