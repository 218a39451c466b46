// What the dashboard shows: the caller's spaces across their workspaces with
// each one's latest version, and recent activity (versions pushed, people who
// joined). It lists only what listSpaces and listWorkspaces already let the
// caller see: no permission rule of its own.
import type { SignedInCaller } from '../access/caller.ts';
import { db } from '../db/client.ts';
import type { Space } from '../schemas/spaces.ts';
import type { WorkspaceSummary } from '../schemas/workspaces.ts';
import { listWorkspaces } from '../workspaces/workspaces.ts';
import { listSpaces } from './spaces.ts';

type Person = { handle: string; name: string | null } | null;

export type SpaceCard = Space & { latest: { number: number; at: number; by: Person; message: string | null } | null };

export type Activity =
  | { kind: 'version'; at: number; by: Person; space: { id: string; name: string }; number: number; message: string | null }
  | { kind: 'joined'; at: number; by: Person; workspace: { slug: string; name: string } };

export async function dashboard(caller: SignedInCaller): Promise<{ workspaces: WorkspaceSummary[]; spaces: SpaceCard[]; activity: Activity[] }> {
  const workspaces = await listWorkspaces(caller);
  const lists = await Promise.all(workspaces.map((w) => listSpaces(caller, w.slug)));
  const seen = new Set<string>();
  const spaces = lists.flat().filter((s) => s.workspace && workspaces.some((w) => w.id === s.workspace.id) && !seen.has(s.id) && seen.add(s.id));
  const ids = spaces.map((s) => s.id);
  const person = { select: { handle: true, name: true } } as const;
  const [latest, recent, joined] = await Promise.all([
    spaces.some((s) => s.latestVersion > 0)
      ? db.version.findMany({
          where: { OR: spaces.filter((s) => s.latestVersion > 0).map((s) => ({ spaceId: s.id, number: s.latestVersion })) },
          select: { spaceId: true, number: true, createdAt: true, message: true, author: person },
        })
      : [],
    db.version.findMany({
      where: { spaceId: { in: ids } },
      orderBy: { createdAt: 'desc' },
      take: 15,
      select: { spaceId: true, number: true, createdAt: true, message: true, author: person },
    }),
    db.membership.findMany({
      where: { workspaceId: { in: workspaces.map((w) => w.id) }, status: 'accepted', acceptedAt: { not: null } },
      orderBy: { acceptedAt: 'desc' },
      take: 10,
      select: { acceptedAt: true, user: person, workspace: { select: { slug: true, name: true } } },
    }),
  ]);
  const latestBySpace = new Map(latest.map((v) => [v.spaceId, v]));
  const names = new Map(spaces.map((s) => [s.id, s.name]));
  const cards: SpaceCard[] = spaces
    .map((s) => {
      const v = latestBySpace.get(s.id);
      return { ...s, latest: v ? { number: v.number, at: v.createdAt.getTime(), by: v.author, message: v.message } : null };
    })
    // Recently pushed first, then recently created.
    .sort((a, b) => (b.latest?.at ?? b.createdAt) - (a.latest?.at ?? a.createdAt));
  const activity: Activity[] = [
    ...recent.map((v) => ({ kind: 'version' as const, at: v.createdAt.getTime(), by: v.author, space: { id: v.spaceId, name: names.get(v.spaceId) ?? v.spaceId }, number: v.number, message: v.message })),
    ...joined.map((m) => ({ kind: 'joined' as const, at: m.acceptedAt!.getTime(), by: m.user, workspace: m.workspace })),
  ]
    .sort((a, b) => b.at - a.at)
    .slice(0, 15);
  return { workspaces, spaces: cards, activity };
}
