// What the dashboard shows: the caller's spaces across their workspaces with
// each one's latest version, and recent activity (versions pushed, people who
// joined). It lists only what the workspaces the caller belongs to hold: no
// permission rule of its own.
import type { SignedInCaller } from '../core/caller.ts';
import { db } from '../db/client.ts';
import type { Space } from '../schemas/spaces.ts';
import type { WorkspaceSummary } from '../schemas/workspaces.ts';
import { listWorkspaces } from '../workspaces/workspaces.ts';
import { memberSpaces } from './spaces.ts';

type Person = { handle: string; name: string | null } | null;

export type SpaceCard = Space & { latest: { number: number; at: number; by: Person; message: string | null } | null };

export type Activity =
  | { kind: 'version'; at: number; by: Person; space: { id: string; name: string }; number: number; message: string | null }
  | { kind: 'joined'; at: number; by: Person; workspace: { slug: string; name: string } };

/**
 * The caller's workspaces, the spaces of those workspaces (the `limit` most
 * recently pushed, or all of them when null) with their latest versions, and
 * recent activity: a fixed number of statements however many workspaces.
 */
export async function dashboard(
  caller: SignedInCaller,
  limit: number | null,
): Promise<{ workspaces: WorkspaceSummary[]; spaces: SpaceCard[]; activity: Activity[]; published: boolean }> {
  const workspaces = await listWorkspaces(caller);
  const workspaceIds = workspaces.map((w) => w.id);
  const spaces = await memberSpaces(caller, new Map(workspaces.map((w) => [w.id, w.role])), limit);
  const person = { select: { handle: true, name: true } } as const;
  const [latest, recent, joined, published] = await Promise.all([
    spaces.some((s) => s.latestVersion > 0)
      ? db.version.findMany({
          where: { OR: spaces.filter((s) => s.latestVersion > 0).map((s) => ({ spaceId: s.id, number: s.latestVersion })) },
          select: { spaceId: true, number: true, createdAt: true, message: true, author: person },
        })
      : [],
    db.version.findMany({
      where: { space: { workspaceId: { in: workspaceIds }, kind: 'repo' } },
      orderBy: { createdAt: 'desc' },
      take: 15,
      select: { spaceId: true, number: true, createdAt: true, message: true, author: person, space: { select: { name: true } } },
    }),
    db.membership.findMany({
      where: { workspaceId: { in: workspaceIds }, status: 'accepted', acceptedAt: { not: null } },
      orderBy: { acceptedAt: 'desc' },
      take: 10,
      select: { acceptedAt: true, user: person, workspace: { select: { slug: true, name: true } } },
    }),
    db.space.findFirst({ where: { workspaceId: { in: workspaceIds }, kind: 'repo', latestVersion: { gt: 0 } }, select: { id: true } }),
  ]);
  const latestBySpace = new Map(latest.map((v) => [v.spaceId, v]));
  // In memberSpaces' order: the latest push or, before any, the creation, newest first.
  const cards: SpaceCard[] = spaces.map((s) => {
    const v = latestBySpace.get(s.id);
    return { ...s, latest: v ? { number: v.number, at: v.createdAt.getTime(), by: v.author, message: v.message } : null };
  });
  const activity: Activity[] = [
    ...recent.map((v) => ({ kind: 'version' as const, at: v.createdAt.getTime(), by: v.author, space: { id: v.spaceId, name: v.space.name }, number: v.number, message: v.message })),
    ...joined.map((m) => ({ kind: 'joined' as const, at: m.acceptedAt!.getTime(), by: m.user, workspace: m.workspace })),
  ]
    .sort((a, b) => b.at - a.at)
    .slice(0, 15);
  return { workspaces, spaces: cards, activity, published: published !== null };
}
