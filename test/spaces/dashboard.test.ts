// The dashboard's data (lib/spaces/overview.ts): the spaces of every workspace
// the person belongs to, recently pushed first, their latest versions and the
// recent activity, in a number of statements that does not grow with the
// workspaces (it listed each workspace's spaces one by one before).
import { describe, expect, it } from 'vitest';
import { POST as createWorkspaceRoute } from '@/app/v1/workspaces/route.ts';
import { callerAs } from '@/lib/core/caller.ts';
import { actorForSecret } from '@/lib/auth/tokens.ts';
import { db } from '@/lib/db/client.ts';
import { dashboard } from '@/lib/spaces/overview.ts';
import { call, signIn } from '../helpers.ts';
import { countQueries } from '../query-count.ts';
import { makeSpace, push } from './fixtures.ts';

describe('the dashboard', () => {
  it('shows the most recently pushed spaces of all their workspaces, in statements that do not grow with them', async () => {
    const { token } = await signIn('dash-a');
    const caller = callerAs((await actorForSecret(token))!);
    const stranger = await signIn('dash-stranger');
    await makeSpace(stranger.token, 'dash-stranger', { name: 'Not theirs' });

    const quiet = await makeSpace(token, 'dash-a', { name: 'Quiet' });
    expect((await dashboard(caller, 12)).published).toBe(false);
    const first = await makeSpace(token, 'dash-a', { name: 'First pushed' });
    await push(token, first.id, { 'index.html': 'one' }, 'One');
    expect((await dashboard(caller, 12)).published).toBe(true);
    const counted = await countQueries(() => dashboard(caller, 12));

    for (const slug of ['dash-a-team', 'dash-a-club', 'dash-a-lab']) {
      expect((await call(createWorkspaceRoute, 'POST', '/v1/workspaces', { token, body: { slug, name: slug } })).status).toBe(200);
    }
    const later = await makeSpace(token, 'dash-a-club', { name: 'Later pushed' });
    await push(token, later.id, { 'index.html': 'two' }, 'Two');
    const fresh = await makeSpace(token, 'dash-a-lab', { name: 'Fresh' });

    const board = await dashboard(caller, 12);
    expect(board.workspaces.map((w) => w.slug)).toEqual(['dash-a', 'dash-a-team', 'dash-a-club', 'dash-a-lab']);
    // Newest first, by the latest push or, before any, the creation.
    expect(board.spaces.map((s) => s.name)).toEqual(['Fresh', 'Later pushed', 'First pushed', 'Quiet']);
    expect(board.published).toBe(true);
    expect(board.spaces[1]).toMatchObject({ id: later.id, latest: { number: 1, message: 'Two', by: { handle: 'dash-a' } }, permissions: { push: true } });
    expect(board.spaces.find((s) => s.id === quiet.id)!.latest).toBeNull();
    expect(board.activity.filter((a) => a.kind === 'version').map((a) => a.kind === 'version' && a.space.name)).toEqual(['Later pushed', 'First pushed']);

    // A short list still knows that something was published.
    const short = await dashboard(caller, 1);
    expect(short.spaces.map((s) => s.id)).toEqual([fresh.id]);
    expect(short.published).toBe(true);
    expect((await dashboard(caller, null)).spaces.map((s) => s.id).sort()).toEqual([quiet.id, first.id, later.id, fresh.id].sort());
    // Four workspaces cost what one did.
    expect(await countQueries(() => dashboard(caller, 12))).toBe(counted);
  });

  it("leaves out an app's own spaces (its preview and live data) and their builds", async () => {
    const { token } = await signIn('dash-apps');
    const caller = callerAs((await actorForSecret(token))!);
    const site = await makeSpace(token, 'dash-apps', { name: 'A site' });
    await push(token, site.id, { 'index.html': 'site' }, 'Site');
    const preview = await makeSpace(token, 'dash-apps', { name: 'App: Idea' });
    await push(token, preview.id, { 'index.html': 'app' }, 'Build 1');
    await db.space.update({ where: { id: preview.id }, data: { kind: 'app' } });
    const board = await dashboard(caller, null);
    expect(board.spaces.map((s) => s.name)).toEqual(['A site']);
    expect(board.activity.filter((a) => a.kind === 'version').map((a) => a.kind === 'version' && a.space.name)).toEqual(['A site']);
  });
});
