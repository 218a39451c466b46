// GET /v1/search through the front server: each kind is found by name (a file
// by its path), and only from current access: someone outside the workspace,
// or only invited to it, finds nothing of it, whatever they type; a viewer
// listed on one space finds that space alone; a removed member finds nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { useFrontServer } from '../server.ts';
import { SEARCHES_PER_MINUTE } from '@/lib/search/search.ts';
import { World, type Person } from '../http/world.ts';

const server = useFrontServer();
let w: World;
let appName: string;

beforeAll(async () => {
  w = await new World(server.origin, 'se').build();
  appName = (await w.must(200, 'GET', `/v1/apps/${w.app}`, { as: w.people.owner })).name;
}, 60_000);

type Result = { kind: string; name: string; context: string; path: string };
const find = async (as: Person, q: string, limit?: number): Promise<Result[]> =>
  (await w.must(200, 'GET', '/v1/search', { as, query: { q, ...(limit ? { limit: String(limit) } : {}) } })).results;

describe('GET /v1/search', () => {
  it('finds workspaces, spaces, rooms, live spaces, apps and files of latest versions, each with its page', async () => {
    const viewer = w.people.viewer;
    expect(await find(viewer, 'fixture TEAM')).toEqual([{ kind: 'workspace', name: 'Fixture team', context: `/w/${w.slug}`, path: `/w/${w.slug}` }]);
    expect((await find(viewer, 'space')).filter((r) => r.kind === 'space').map((r) => r.name).sort()).toEqual(['members space', 'password space', 'public space']);
    expect(await find(viewer, 'a room')).toContainEqual({ kind: 'room', name: 'A room', context: 'Fixture team', path: `/rooms/${w.rooms.room}` });
    expect(await find(viewer, 'a live')).toContainEqual({ kind: 'live-space', name: 'A live', context: 'Fixture team', path: `/live-spaces/${w.rooms.live}` });
    expect(await find(viewer, appName)).toContainEqual({ kind: 'app', name: appName, context: 'Fixture team', path: `/apps/${w.app}` });
    // Files: every space of the workspace has docs/guide.md; the password space's too, as members skip the password.
    const files = (await find(viewer, 'docs guide')).filter((r) => r.kind === 'file');
    expect(files.map((r) => r.path).sort()).toEqual(Object.values(w.spaces).map((id) => `/spaces/${id}?path=docs%2Fguide.md`).sort());
    expect(files.every((r) => r.name === 'docs/guide.md')).toBe(true);
  });

  it('returns at most `limit` results of each kind', async () => {
    const results = await find(w.people.owner, 'space', 2);
    expect(results.filter((r) => r.kind === 'space')).toHaveLength(2);
    expect(await find(w.people.owner, 'nothing-is-called-this')).toEqual([]);
  });

  it("takes LIKE's wildcards and a backslash as the characters they are", async () => {
    for (const q of ['%', '_', '%%', 'a%e', 's_ace', '\\', '\\%']) expect(await find(w.people.owner, q, 20)).toEqual([]);
    const { id } = await w.must(200, 'POST', '/v1/spaces', { as: w.people.owner, body: { workspace: w.slug, name: 'Q3_plan 100% \\draft' } });
    for (const q of ['3_p', '100%', '% \\d']) expect(await find(w.people.owner, q, 20)).toEqual([{ kind: 'space', name: 'Q3_plan 100% \\draft', context: 'Fixture team', path: `/spaces/${id}` }]);
  });

  it('gives someone outside the workspace, or only invited to it, nothing of it', async () => {
    for (const person of [w.people.outsider, w.people.invited]) {
      for (const q of ['fixture', w.slug, 'space', 'a room', 'a live', appName, 'guide', 'index.html', 'a']) {
        const results = await find(person, q, 20);
        // Their own personal workspace may match a letter; nothing of the fixture's workspace may.
        expect(results.filter((r) => r.kind !== 'workspace' || r.path !== `/w/${person.handle}`), `${person.handle} searching "${q}"`).toEqual([]);
      }
    }
  });

  it('finds a space for a person listed as its viewer, and nothing else of its workspace', async () => {
    const guest = await w.signIn();
    await w.must(200, 'PATCH', `/v1/spaces/${w.spaces.members}`, { as: w.people.owner, body: { viewers: { handles: [guest.handle] } } });
    expect((await find(guest, 'space')).map((r) => r.path)).toEqual([`/spaces/${w.spaces.members}`]);
    expect((await find(guest, 'guide')).map((r) => r.path)).toEqual([`/spaces/${w.spaces.members}?path=docs%2Fguide.md`]);
    expect((await find(guest, 'a')).filter((r) => !r.path.startsWith(`/spaces/${w.spaces.members}`) && r.path !== `/w/${guest.handle}`)).toEqual([]);
  });

  it('follows access as it changes: a member removed finds nothing at once', async () => {
    const member = (await w.fresh('member'))!;
    expect((await find(member, 'guide')).length).toBe(3);
    await w.must(204, 'DELETE', `/v1/workspaces/${w.slug}/members/${member.handle}`, { as: w.people.owner });
    expect(await find(member, 'guide')).toEqual([]);
    expect(await find(member, 'fixture')).toEqual([]);
  });

  it('asks for a sign-in and a query', async () => {
    expect((await w.call('GET', '/v1/search', { query: { q: 'space' } })).status).toBe(401);
    expect((await w.call('GET', '/v1/search', { as: w.people.owner })).json.error.code).toBe('bad_request');
    expect((await w.call('GET', '/v1/search', { as: w.people.owner, query: { q: 'space', limit: '21' } })).status).toBe(400);
  });

  it('counts each person\'s searches: parallel requests past the minute\'s limit get exactly the limit, the rest 429', async () => {
    const person = await w.signIn();
    const answers = await Promise.all(Array.from({ length: SEARCHES_PER_MINUTE + 20 }, () => w.call('GET', '/v1/search', { as: person, query: { q: 'fixture' } })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(SEARCHES_PER_MINUTE);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(20);
    expect(refused[0].json.error.code).toBe('rate_limited');
    expect(refused[0].headers['retry-after']).toBeTruthy();
    // Someone else searches on.
    expect((await w.call('GET', '/v1/search', { as: w.people.viewer, query: { q: 'fixture' } })).status).toBe(200);
  });
});
