// Webhook delivery is fair: one workspace's 20 slow endpoints, with 10 events
// each queued first, hold only their own deliveries and a few of the node's
// places; another workspace's endpoint gets its delivery while every slow
// request is still held open. Nothing is lost or sent twice once they answer.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { PER_WORKSPACE } from '@/lib/webhooks/dispatch.ts';
import { startBackgroundWork } from '@/server/jobs.ts';
import { queueWebhookEvent } from '@/lib/audit/webhook-events.ts';
import { World } from '../http/world.ts';
import { waitFor } from '../rooms/socket-helpers.ts';
import { useFrontServer } from '../server.ts';

const SLOW_ENDPOINTS = 20;
const EVENTS = 10;

const server = useFrontServer();
let w: World;

/** Requests the slow receiver holds (unanswered), and whether the sender gave up on any. */
const held: { path: string; response: ServerResponse; abandoned: boolean }[] = [];
let releasing = false;
const answered: string[] = [];
const fastReceived: string[] = [];

function answer(request: IncomingMessage, response: ServerResponse, into: string[]) {
  const parts: Buffer[] = [];
  request.on('data', (c: Buffer) => parts.push(c));
  request.on('end', () => {
    into.push(`${request.url} ${JSON.parse(Buffer.concat(parts).toString()).id}`);
    response.end('ok');
  });
}

const slow = createServer((request, response) => {
  if (releasing) return answer(request, response, answered);
  const entry = { path: request.url!, response, abandoned: false };
  held.push(entry);
  request.resume();
  // The connection closed before the answer: the sender gave up on it.
  response.on('close', () => {
    if (!response.writableEnded) entry.abandoned = true;
  });
});
const fast = createServer((request, response) => answer(request, response, fastReceived));
const origin = (s: typeof slow) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

beforeAll(async () => {
  for (const s of [slow, fast]) await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  w = await new World(server.origin, 'wf').build();
  config.webhooksAllowPrivate = true;
}, 60_000);

afterAll(async () => {
  for (const s of [slow, fast]) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

describe('fair webhook delivery', () => {
  it("delivers another workspace's event while one workspace's slow endpoints are all held", async () => {
    const register = async (workspace: string, url: string) => {
      const { webhook } = await w.must(200, 'POST', `/v1/workspaces/${workspace}/webhooks`, { as: w.people.owner, body: { url, events: ['comment.created'] } });
      return webhook.id as string;
    };
    const idOf = async (slug: string) => (await db.workspace.findUniqueOrThrow({ where: { slug }, select: { id: true } })).id;
    const busy = await w.spareWorkspace();
    for (let i = 0; i < SLOW_ENDPOINTS; i++) await register(busy, `${origin(slow)}/slow/${i}`);
    const other = await w.spareWorkspace();
    await register(other, `${origin(fast)}/fast`);
    const busyId = await idOf(busy);

    // The slow workspace's events are queued first, so they are the oldest due.
    for (let i = 0; i < EVENTS; i++) await queueWebhookEvent(db, busyId, 'comment.created', { n: i });
    await queueWebhookEvent(db, await idOf(other), 'comment.created', { n: 'other' });

    const stop = await startBackgroundWork();
    try {
      await waitFor("the other workspace's delivery", () => fastReceived.length === 1, 30_000);
      await waitFor("the slow workspace's share of the node", () => held.length === PER_WORKSPACE);
      // Every slow request is still held open: none was given up on to make room.
      expect(held.some((h) => h.abandoned)).toBe(false);
      // One at a time per endpoint.
      expect(new Set(held.map((h) => h.path)).size).toBe(held.length);

      releasing = true;
      for (const h of held) h.response.end('ok');
      const delivered = () => db.webhookDelivery.count({ where: { status: 'delivered', endpoint: { workspaceId: busyId } } });
      for (let count = 0; count < SLOW_ENDPOINTS * EVENTS; count = await delivered()) await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await stop();
    }
    // Each slow delivery reached its endpoint once.
    expect(answered.length).toBe(SLOW_ENDPOINTS * EVENTS - held.length);
    expect(new Set(answered).size).toBe(answered.length);
  }, 120_000);
});
