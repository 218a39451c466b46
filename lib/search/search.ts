// What the ⌘K menu finds: the caller's workspaces, spaces, rooms, live spaces
// and apps by name, and files of their spaces' latest versions by path. Only
// what lib/access lists for the caller is searched, read from the current
// grants on every request, so a removed member finds nothing at once.
import type { SignedInCaller } from '../core/caller.ts';
import { listedRooms } from '../access/rooms.ts';
import { foundSpaces } from '../access/spaces.ts';
import { joinedWorkspaces } from '../access/workspaces.ts';
import { db } from '../db/client.ts';
import { rateLimit } from '../core/rate-limit.ts';
import type { RoomKind } from '../db/generated/client.ts';
import type { SearchResult } from '../schemas/search.ts';
import { manifestEntries } from '../spaces/manifest.ts';
import { versionRefs } from '../spaces/publishing.ts';

// Files are matched in memory over the manifests' chunks (cached by hash, so
// the next keystroke decodes nothing): the latest versions of the most
// recently created spaces, up to a bound that keeps an answer fast.
const FILE_SPACES = 50;
const FILE_ENTRIES = 200_000;

/** Searches a person may run a minute: the menu asks once typing pauses, so a person typing never meets it, a script looping over it does. */
export const SEARCHES_PER_MINUTE = 120;
const searches = rateLimit({ name: 'search', points: SEARCHES_PER_MINUTE, duration: 60, message: `At most ${SEARCHES_PER_MINUTE} searches a minute; wait a moment.` });

const ROOM_KINDS: Record<RoomKind, { kind: 'room' | 'live-space'; path: string }> = { room: { kind: 'room', path: '/rooms' }, live: { kind: 'live-space', path: '/live-spaces' } };

export async function search({ actor }: SignedInCaller, q: string, limit: number): Promise<SearchResult[]> {
  const userId = actor.user.id;
  // Each search may read up to FILE_ENTRIES paths: counted per person before any of it.
  await searches.consume(userId);
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  // Prisma's `contains` is ILIKE '%…%' with the word as given: its wildcards and escape are escaped, so they match themselves.
  const contains = (word: string) => ({ contains: word.replace(/[\\%_]/g, '\\$&'), mode: 'insensitive' as const });
  const named = { AND: words.map((w) => ({ name: contains(w) })) };
  const workspace = { select: { slug: true, name: true } };

  const [workspaces, spaces, rooms, apps, files] = await Promise.all([
    db.workspace.findMany({
      where: { ...joinedWorkspaces(userId), AND: words.map((w) => ({ OR: [{ name: contains(w) }, { slug: contains(w) }] })) },
      select: { slug: true, name: true },
      orderBy: { name: 'asc' },
      take: limit,
    }),
    db.space.findMany({ where: { kind: 'repo', ...foundSpaces(userId), ...named }, select: { id: true, name: true, workspace }, orderBy: { createdAt: 'desc' }, take: limit }),
    Promise.all(
      (['room', 'live'] as const).map((kind) =>
        db.room.findMany({ where: { kind, ...listedRooms(userId), ...named }, select: { id: true, kind: true, name: true, workspace }, orderBy: { createdAt: 'desc' }, take: limit }),
      ),
    ),
    db.app.findMany({ where: { room: listedRooms(userId), ...named }, select: { id: true, name: true, room: { select: { workspace } } }, orderBy: { createdAt: 'desc' }, take: limit }),
    findFiles(userId, words, limit),
  ]);

  return [
    ...workspaces.map((w) => ({ kind: 'workspace' as const, name: w.name, context: `/w/${w.slug}`, path: `/w/${w.slug}` })),
    ...spaces.map((s) => ({ kind: 'space' as const, name: s.name, context: s.workspace.name, path: `/spaces/${s.id}` })),
    ...rooms.flat().map((r) => ({ kind: ROOM_KINDS[r.kind].kind, name: r.name, context: r.workspace.name, path: `${ROOM_KINDS[r.kind].path}/${r.id}` })),
    ...apps.map((a) => ({ kind: 'app' as const, name: a.name, context: a.room.workspace.name, path: `/apps/${a.id}` })),
    ...files,
  ];
}

async function findFiles(userId: string, words: string[], limit: number): Promise<SearchResult[]> {
  const spaces = await db.space.findMany({
    where: { kind: 'repo', latestVersion: { gt: 0 }, ...foundSpaces(userId) },
    select: { id: true, name: true, latestVersion: true, workspace: { select: { name: true } } },
    orderBy: { createdAt: 'desc' },
    take: FILE_SPACES,
  });
  const found: SearchResult[] = [];
  let scanned = 0;
  for (const space of spaces) {
    const refs = await versionRefs(space.id, space.latestVersion);
    if (!refs) continue;
    for (const entry of await manifestEntries(refs)) {
      const path = entry.path.toLowerCase();
      if (!words.every((w) => path.includes(w))) continue;
      found.push({ kind: 'file', name: entry.path, context: `${space.name} · ${space.workspace.name}`, path: `/spaces/${space.id}?path=${encodeURIComponent(entry.path)}` });
      if (found.length === limit) return found;
    }
    scanned += refs.reduce((sum, r) => sum + r.count, 0);
    if (scanned >= FILE_ENTRIES) break;
  }
  return found;
}
