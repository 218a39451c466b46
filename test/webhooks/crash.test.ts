// Webhook deliveries across the death and the drain of the server process
// that sends them (the job queue, lib/jobs): a process killed mid-delivery
// leaves the job to another, which sends it again once its lease has run out,
// and still before the endpoint's next delivery; a process told to stop
// (SIGTERM) finishes the delivery it is sending and exits, sending nothing twice.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/db/client.ts';
import { LEASE_SECONDS } from '@/lib/webhooks/dispatch.ts';
import { World } from '../http/world.ts';
import { useApiServers } from '../process-server.ts';
import { waitFor } from '../rooms/socket-helpers.ts';
import { useFrontServer } from '../server.ts';

const server = useFrontServer();
const servers = useApiServers();
const env = { WEBHOOKS_ALLOW_PRIVATE: 'true' };
let w: World;

type Arrival = { delivery: string; at: number; response: ServerResponse };
let arrivals: Arrival[] = [];
/** Whether the receiver holds requests (no answer) or answers them at once. */
let holding = true;

const receiver = createServer((request: IncomingMessage, response: ServerResponse) => {
  request.resume();
  arrivals.push({ delivery: String(request.headers['atrium-delivery']), at: Date.now(), response });
  if (!holding) response.end('ok');
});

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  w = await new World(server.origin, 'wc').build();
}, 60_000);

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

async function endpointWithPings(count: number): Promise<{ hook: string; pings: string[] }> {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const { webhook } = await w.must(200, 'POST', `/v1/workspaces/${w.slug}/webhooks`, { as: w.people.owner, body: { url, events: ['version.committed'] } });
  const pings: string[] = [];
  for (let i = 0; i < count; i++) pings.push((await w.must(200, 'POST', `/v1/webhooks/${webhook.id}/ping`, { as: w.people.owner })).id);
  return { hook: webhook.id, pings };
}

describe('webhook deliveries and the processes that send them', () => {
  it('sends a delivery again after its sender was killed mid-send, before the next one of its endpoint', async () => {
    arrivals = [];
    holding = true;
    const { pings } = await endpointWithPings(2);
    const first = await servers.start(env);
    await waitFor('the first attempt', () => arrivals.length === 1, 15_000);
    expect(arrivals[0]!.delivery).toBe(pings[0]);
    await first.kill('SIGKILL');
    const killedAt = Date.now();
    holding = false;

    const second = await servers.start(env);
    // The job stays the dead process's until its lease ends; the supervisor (every 15 s) then retries it, 5-10 s later.
    await waitFor('the delivery sent again', () => arrivals.length >= 3, (LEASE_SECONDS + 60) * 1000);
    const again = arrivals[1]!;
    expect(again.delivery).toBe(pings[0]);
    expect(again.at - killedAt).toBeGreaterThanOrEqual((LEASE_SECONDS - 1) * 1000);
    // The endpoint's next delivery waited for it: one endpoint's deliveries stay in order.
    expect(arrivals[2]!.delivery).toBe(pings[1]);
    const rows = await db.webhookDelivery.findMany({ where: { id: { in: pings } }, orderBy: { createdAt: 'asc' } });
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ['delivered', 2],
      ['delivered', 1],
    ]);
    await second.stop();
  }, 180_000);

  it('finishes the delivery in flight on SIGTERM, then exits; nothing is sent twice', async () => {
    arrivals = [];
    holding = true;
    const { pings } = await endpointWithPings(1);
    const node = await servers.start(env);
    await waitFor('the attempt', () => arrivals.length === 1, 15_000);
    const exited = node.exited;
    process.kill(node.pid, 'SIGTERM');
    // It waits for the delivery it is sending.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await Promise.race([exited.then(() => 'exited'), Promise.resolve('running')])).toBe('running');
    arrivals[0]!.response.end('ok');
    expect(await exited).toBe(0);
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: pings[0]! } });
    expect([row.status, row.attempts]).toEqual(['delivered', 1]);
    // Another process finds nothing left to send.
    holding = false;
    await servers.start(env);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(arrivals).toHaveLength(1);
  }, 120_000);
});
