// `atrium apps …` run as a user runs it, against a real server.
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFrontServer } from '../server.ts';
import { cliAgainst, cliTimeout } from './run-cli.ts';
import { World } from '../http/world.ts';
import { bookClub, writeRoom } from '../apps/helpers.ts';

const server = useFrontServer();
let w: World;

beforeAll(async () => {
  w = await new World(server.origin, 'ac').build();
}, 60_000);

const atrium = cliAgainst(server);

describe('atrium apps', () => {
  it('lists, shows, puts live, promotes, rolls back, lists deploys and exports', async () => {
    const token = w.people.owner.token;
    const room = await w.must(200, 'POST', '/v1/rooms', { as: w.people.owner, body: { workspace: w.slug } });
    await writeRoom(room.id, bookClub());
    const { app } = await w.must(200, 'POST', `/v1/rooms/${room.id}/build`, { as: w.people.owner, body: {} });

    const listed = JSON.parse(await atrium(token, 'apps', 'list', '--room', room.id, '--json'));
    expect(listed.apps.map((a: { id: string }) => a.id)).toEqual([app.id]);
    expect(await atrium(token, 'apps', 'info', app.id)).toContain('Book club');
    const live = JSON.parse(await atrium(token, 'apps', 'live', app.id, '--access', 'public', '--copy-data', '--json'));
    expect(live).toMatchObject({ status: 'live', access: 'public', liveVersion: 1 });

    await writeRoom(room.id, bookClub('Emma'));
    await w.must(200, 'POST', `/v1/rooms/${room.id}/build`, { as: w.people.owner, body: { appId: app.id } });
    expect(await atrium(token, 'apps', 'promote', app.id)).toContain('Version 2 is live');
    expect(JSON.parse(await atrium(token, 'apps', 'rollback', app.id, '1', '--json')).liveVersion).toBe(1);
    const { deploys } = JSON.parse(await atrium(token, 'apps', 'deploys', app.id, '--json'));
    expect(deploys.map((d: { kind: string }) => d.kind)).toEqual(['rollback', 'promote', 'live']);
    const table = await atrium(token, 'apps', 'deploys', app.id);
    expect(table).toMatch(/3 \*\s+rollback/);
    // Each deploy says what it changed: the first adds every file, nothing removed.
    expect(table).toMatch(/1\s+live\s+v1\s+\+\d+ ~0 -0/);

    const file = path.join(await mkdtemp(path.join(tmpdir(), 'atrium-export-')), 'club.zip');
    expect(JSON.parse(await atrium(token, 'apps', 'export', app.id, '-o', file, '--json'))).toEqual({ file });
    expect((await stat(file)).size).toBeGreaterThan(1000);
  }, cliTimeout(8));
});
