import { Card, EmptyState } from '@/components/ui/card.tsx';
import type { LiveSpace, Room } from '@/lib/schemas/rooms.ts';
import { formatTime } from '@/lib/web/format.ts';
import { KIND, type RoomKindName } from './kinds.ts';

/** Rooms (or live spaces) the person can open, most recently active first. */
export function RoomList({ kind, rooms }: { kind: RoomKindName; rooms: (Room | LiveSpace)[] }) {
  const { plural, prefix } = KIND[kind];
  if (rooms.length === 0) return <EmptyState>No {plural.toLowerCase()} yet. Create one below.</EmptyState>;
  return (
    <ul aria-label={plural} className="divide-y divide-slate-100 rounded-lg border border-line">
      {rooms.map((room) => (
        <li key={room.id} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-3">
          <div>
            <a href={`/${prefix}/${room.id}`} className="font-medium text-link hover:underline">
              {room.icon ? `${room.icon} ` : ''}
              {room.name}
            </a>
            <span className="ml-2 text-sm text-muted">
              {room.workspace.name} · {room.role}
            </span>
            {room.description ? <p className="text-sm text-muted">{room.description}</p> : null}
          </div>
          <span className="text-xs text-muted">
            {room.lastActivity ? `${room.lastActivity}, ${formatTime(room.lastActivityAt)}` : formatTime(room.createdAt)}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function RoomListCard({ kind, rooms, children }: { kind: RoomKindName; rooms: (Room | LiveSpace)[]; children?: React.ReactNode }) {
  return (
    <Card title={`${KIND[kind].plural} (${rooms.length})`}>
      <RoomList kind={kind} rooms={rooms} />
      {children}
    </Card>
  );
}
