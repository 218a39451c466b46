// Going live with copyData is all or nothing: the server is SIGKILLed at
// several moments of a go-live that copies 200 preview rows, and after each
// restart the app is either not live (and a new go-live copies every row) or
// live with every row; never live with some of them.
import { afterAll, expect, it } from 'vitest';
import type { JSONContent } from '@tiptap/core';
import { devLogin, request, useApiServers, type ApiProcess } from '../process-server.ts';
import { writeRoom } from '../apps/helpers.ts';
import { makeDataDir } from './helpers.ts';
import { onPort, rawRequest } from '../http/raw.ts';
import { liveAppUrl } from '@/lib/spaces/hosts.ts';

const servers = useApiServers();
const dataDir = await makeDataDir();
const ROWS = 200;
let server: ApiProcess;

afterAll(() => server?.stop());

const p = (text: string): JSONContent => ({ type: 'paragraph', content: [{ type: 'text', text }] });

it(`never leaves an app live with part of its ${ROWS} copied rows, whenever the go-live is killed`, async () => {
  server = await servers.start({ DATA_DIR: dataDir });
  const { token } = await devLogin(server.origin, 'golive');
  const room = await request(server.origin, 'POST', '/v1/rooms', { token, body: { workspace: 'golive', name: 'Guests' } });
  await writeRoom(room.json.id, [
    { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Guests' }] },
    { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Guest list (form)' }] },
    p('| Name | Note |'),
    p('| --- | --- |'),
    ...Array.from({ length: ROWS }, (_, i) => p(`| Guest ${i} | note ${i} |`)),
  ]);
  const built = await request(server.origin, 'POST', `/v1/rooms/${room.json.id}/build`, { token, body: {} });
  expect(built.status).toBe(200);
  const app = built.json.app as { id: string; slug: string };

  const rowsLive = async () => (await rawRequest(onPort(liveAppUrl(app.slug), server.origin), 'GET', '/_api/tables/guest_list')).json.rows.length as number;
  const outcomes: string[] = [];
  for (const delay of [5, 20, 45, 70, 120, 250]) {
    const going = request(server.origin, 'POST', `/v1/apps/${app.id}/live`, { token, body: { access: 'public', copyData: true } }).catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, delay));
    await server.kill('SIGKILL');
    await going;
    server = await servers.start({ DATA_DIR: dataDir });
    const state = await request(server.origin, 'GET', `/v1/apps/${app.id}`, { token });
    if (state.json.liveVersion === null) {
      outcomes.push(`${delay} ms: not live`);
      continue;
    }
    outcomes.push(`${delay} ms: live`);
    expect(await rowsLive(), `killed after ${delay} ms`).toBe(ROWS);
    break;
  }
  if (outcomes.at(-1)!.endsWith('not live')) {
    const live = await request(server.origin, 'POST', `/v1/apps/${app.id}/live`, { token, body: { access: 'public', copyData: true } });
    expect(live.status).toBe(200);
  }
  // Live now, with every row once, whatever the kills cut short.
  expect(await rowsLive()).toBe(ROWS);
  expect((await request(server.origin, 'POST', `/v1/apps/${app.id}/live`, { token, body: { access: 'public' } })).status).toBe(409);
}, 120_000);
