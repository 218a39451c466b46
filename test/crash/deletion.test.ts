// The server is SIGKILLed while it deletes an account with several
// workspaces and spaces, inside the deletion's transaction. After a restart
// the account is not half deleted: either the user is there with everything
// they had, or gone with everything lib/accounts/deletion.ts says goes (their
// own workspaces with their spaces, their tokens and memberships) while a
// shared workspace they owned passed to its other member. Asking again
// completes the deletion, and what others hold still reads back byte for byte.
import { expect, it } from 'vitest';
import { devLogin, request, useApiServers } from '../process-server.ts';
import { inconsistencies, killInTransaction, makeDataDir, pullMismatches, randomFile, useSql, type Files, onDisk } from './helpers.ts';
import { push } from '../push.ts';

const servers = useApiServers();
const sql = useSql();
const dataDir = await makeDataDir();

const SOLO = ['solo-1', 'solo-2', 'solo-3'];
// Page views of one space, deleted with it: they make the transaction long
// enough to be caught in, as a popular site's would.
const VIEWS = 50_000;

/** What the deletion touches, as plain values to compare. */
async function snapshot() {
  const [user] = await sql.query(`SELECT id FROM "User" WHERE handle = 'doomed'`);
  const count = async (text: string) => Number((await sql.query(text))[0].n);
  const own = `(SELECT id FROM "Workspace" WHERE slug IN ('doomed', ${SOLO.map((s) => `'${s}'`).join(', ')}))`;
  return {
    user: Boolean(user),
    memberships: (
      await sql.query(`SELECT w.slug || ':' || m.role AS m FROM "Membership" m JOIN "Workspace" w ON w.id = m."workspaceId"
        JOIN "User" u ON u.id = m."userId" WHERE u.handle = 'doomed' ORDER BY 1`)
    ).map((r) => r.m),
    ownWorkspaces: await count(`SELECT count(*) AS n FROM "Workspace" WHERE id IN ${own}`),
    ownSpaces: await count(`SELECT count(*) AS n FROM "Space" WHERE "workspaceId" IN ${own}`),
    ownVersions: await count(`SELECT count(*) AS n FROM "Version" v JOIN "Space" s ON s.id = v."spaceId" WHERE s."workspaceId" IN ${own}`),
    views: await count(`SELECT count(*) AS n FROM "SpaceView"`),
    tokens: await count(`SELECT count(*) AS n FROM "Token" t JOIN "User" u ON u.id = t."userId" WHERE u.handle = 'doomed'`),
    teamOwners: (
      await sql.query(`SELECT u.handle FROM "Membership" m JOIN "Workspace" w ON w.id = m."workspaceId" JOIN "User" u ON u.id = m."userId"
        WHERE w.slug = 'doomed-team' AND m.role = 'owner' ORDER BY 1`)
    ).map((r) => r.handle),
    otherTeamMembers: (
      await sql.query(`SELECT u.handle FROM "Membership" m JOIN "Workspace" w ON w.id = m."workspaceId" JOIN "User" u ON u.id = m."userId"
        WHERE w.slug = 'other-team' ORDER BY 1`)
    ).map((r) => r.handle),
    sharedSpaces: await count(`SELECT count(*) AS n FROM "Space" s JOIN "Workspace" w ON w.id = s."workspaceId" WHERE w.slug IN ('doomed-team', 'other-team')`),
  };
}

const gone = {
  user: false,
  memberships: [],
  ownWorkspaces: 0,
  ownSpaces: 0,
  ownVersions: 0,
  views: 0,
  tokens: 0,
  teamOwners: ['heir'],
  otherTeamMembers: ['other'],
  sharedSpaces: 2,
};

it('deletes all of an account or none of it after a crash mid-deletion, and deleting again completes', async () => {
  let server = await servers.start(onDisk(dataDir));
  const origin = () => server.origin;
  const doomed = await devLogin(origin(), 'doomed');
  await devLogin(origin(), 'doomed'); // a second token, which goes too
  const heir = await devLogin(origin(), 'heir');
  const other = await devLogin(origin(), 'other');
  const ok = async (answer: ReturnType<typeof request>) => {
    const result = await answer;
    if (result.status >= 300) throw new Error(`${result.status} ${result.text}`);
    return result;
  };
  const newSpace = async (token: string, workspace: string, name: string) =>
    (await ok(request(origin(), 'POST', '/v1/spaces', { token, body: { workspace, name } }))).json.id as string;
  const site = (): Files => ({ 'index.html': randomFile(300), 'data/a.bin': randomFile(5000) });

  // Workspaces of their own, each with spaces and versions: they go with the account.
  const ownSpaces = [await newSpace(doomed.token, 'doomed', 'Home')];
  for (const slug of SOLO) {
    await ok(request(origin(), 'POST', '/v1/workspaces', { token: doomed.token, body: { slug, name: slug } }));
    for (const name of ['One', 'Two']) ownSpaces.push(await newSpace(doomed.token, slug, name));
  }
  for (const id of ownSpaces) {
    await push(origin(), doomed.token, id, site());
    await push(origin(), doomed.token, id, site());
  }
  await sql.query(
    `INSERT INTO "SpaceView" ("spaceId", "path", "visitor") SELECT $1, '/index.html', 'v' || i FROM generate_series(1, ${VIEWS}) i`,
    [ownSpaces[1]],
  );
  // A shared workspace they alone own passes to its other member; what they pushed there stays.
  await ok(request(origin(), 'POST', '/v1/workspaces', { token: doomed.token, body: { slug: 'doomed-team', name: 'Team' } }));
  await ok(request(origin(), 'POST', '/v1/workspaces/doomed-team/members', { token: doomed.token, body: { handle: 'heir' } }));
  await ok(request(origin(), 'POST', '/v1/workspaces/doomed-team/accept', { token: heir.token }));
  const teamSpace = await newSpace(doomed.token, 'doomed-team', 'Shared');
  const teamFiles = site();
  await push(origin(), doomed.token, teamSpace, teamFiles);
  // Someone else's workspace they are a member of: they leave it.
  await ok(request(origin(), 'POST', '/v1/workspaces', { token: other.token, body: { slug: 'other-team', name: 'Other' } }));
  await ok(request(origin(), 'POST', '/v1/workspaces/other-team/members', { token: other.token, body: { handle: 'doomed' } }));
  await ok(request(origin(), 'POST', '/v1/workspaces/other-team/accept', { token: doomed.token }));
  const otherSpace = await newSpace(other.token, 'other-team', 'Theirs');
  const otherFiles = site();
  await push(origin(), doomed.token, otherSpace, otherFiles);

  const before = await snapshot();
  expect(before).toMatchObject({ user: true, ownWorkspaces: 4, ownSpaces: 7, ownVersions: 14, views: VIEWS, tokens: 2, teamOwners: ['doomed'] });

  const deletion = request(origin(), 'DELETE', '/v1/me', { token: doomed.token });
  const landed = await killInTransaction(server, deletion);
  await deletion.catch(() => {});
  expect(landed, 'the server was never killed inside the deletion transaction').toBe(true);

  server = await servers.start(onDisk(dataDir));
  expect(await inconsistencies(sql, dataDir)).toEqual([]);
  const after = await snapshot();
  expect([before, gone]).toContainEqual(after);

  // Deleting again completes; once the account is gone its token is refused.
  const again = await request(origin(), 'DELETE', '/v1/me', { token: doomed.token });
  expect(again.status).toBe(after.user ? 204 : 401);
  expect(await snapshot()).toEqual(gone);
  expect(await inconsistencies(sql, dataDir)).toEqual([]);
  const [{ authors }] = await sql.query(`SELECT array_agg(DISTINCT "authorId") AS authors FROM "Version" WHERE "spaceId" IN ($1, $2)`, [teamSpace, otherSpace]);
  expect(authors).toEqual([null]);

  // What others hold is untouched, byte for byte.
  expect(await pullMismatches(origin(), heir.token, teamSpace, teamFiles)).toEqual([]);
  expect(await pullMismatches(origin(), other.token, otherSpace, otherFiles)).toEqual([]);
}, 30_000);
