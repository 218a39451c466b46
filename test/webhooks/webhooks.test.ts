// Outgoing webhooks against a receiver this test starts on loopback: what is
// queued (in the change's own transaction), how deliveries are signed,
// retried, logged and redelivered, the guard against private addresses, and
// delivery by separate server processes (after a restart, once across two).
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { config } from '@/lib/config.ts';
import { db } from '@/lib/db/client.ts';
import { relayDeliveries, RETRY_AFTER_SECONDS, webhookDeliveries } from '@/lib/webhooks/dispatch.ts';
import { encryptSecret } from '@/lib/webhooks/secret.ts';
import { FILES, World } from '../http/world.ts';
import { makeDue, workDue } from '../jobs.ts';
import { push } from '../push.ts';
import { useApiServers } from '../process-server.ts';
import { useFrontServer } from '../server.ts';
import { waitFor } from '../rooms/socket-helpers.ts';

const server = useFrontServer();
const servers = useApiServers();
let w: World;

type Received = { headers: IncomingHttpHeaders; body: string; json: any };
let received: Received[] = [];
/** What the receiver answers next: a status and a body. */
let answer: { status: number; body: string } = { status: 200, body: 'ok' };
let receiver: Server;
let receiverUrl = '';

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (c: Buffer) => parts.push(c));
    request.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      received.push({ headers: request.headers, body, json: JSON.parse(body) });
      response.writeHead(answer.status, { 'content-type': 'text/plain' });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/atrium`;
  w = await new World(server.origin, 'wh').build();
}, 60_000);

afterAll(() => new Promise((resolve) => receiver.close(resolve)));

afterEach(async () => {
  // Each test's endpoints go with it, so no delivery of theirs reaches the next.
  await db.webhookEndpoint.deleteMany({ where: { id: { in: registered.splice(0) } } });
  received = [];
  answer = { status: 200, body: 'ok' };
  config.webhooksAllowPrivate = true;
});

const registered: string[] = [];

async function register(events: string[], url = receiverUrl): Promise<{ id: string; secret: string }> {
  const { webhook, secret } = await w.must(200, 'POST', `/v1/workspaces/${w.slug}/webhooks`, { as: w.people.admin, body: { url, events, description: 'test receiver' } });
  registered.push(webhook.id);
  return { id: webhook.id, secret };
}

/** One version of `files` through plan, upload and commit, as the owner. */
const pushAsOwner = (spaceId: string, files: Record<string, string>, message: string) => push(server.origin, w.people.owner.token, spaceId, files, message);

/** Relays and sends everything due now, as a server's relay and workers do, until nothing is left. */
async function flush() {
  while ((await relayDeliveries()) + (await workDue(webhookDeliveries)) > 0);
}

/** Checks a delivery as a receiver would: with the published Standard Webhooks library, and the older Atrium-Signature by hand. */
function verify(secret: string, delivery: Received) {
  const headers = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k, String(v)]));
  expect(new Webhook(secret.startsWith('whsec_') ? secret : legacyAsStandard(secret)).verify(delivery.body, headers)).toEqual(delivery.json);
  expect(delivery.headers['webhook-id']).toBe(delivery.json.id);
  const [t, v1] = String(delivery.headers['atrium-signature']).split(',');
  const timestamp = Number(t.slice(2));
  expect(String(timestamp)).toBe(delivery.headers['webhook-timestamp']);
  expect(v1.slice(3)).toBe(createHmac('sha256', secret).update(`${timestamp}.${delivery.body}`).digest('hex'));
}

/** What docs/webhooks.md tells owners of an older `atrh_` secret to give a Standard Webhooks library. */
const legacyAsStandard = (secret: string) => `whsec_${Buffer.from(secret.slice('atrh_'.length), 'base64url').toString('base64')}`;

describe('webhooks', () => {
  it('queues the events an endpoint listens to and delivers each one signed, with its event id and type', async () => {
    const hook = await register(['version.committed', 'comment.created', 'comment.resolved', 'member.joined', 'member.left']);
    expect(hook.secret).toMatch(/^whsec_[\w+/]{43}=$/);
    const listed = await w.must(200, 'GET', `/v1/workspaces/${w.slug}/webhooks`, { as: w.people.owner });
    expect(JSON.stringify(listed)).not.toContain(hook.secret);

    await pushAsOwner(w.spaces.public, { ...FILES, 'index.html': '<h1>v2</h1>' }, 'Second');
    const thread = await w.comment('public');
    await w.must(200, 'POST', `/v1/comments/${thread}/resolve`, { as: w.people.owner });
    const joiner = await w.signIn();
    await w.must(204, 'POST', `/v1/workspaces/${w.slug}/members`, { as: w.people.owner, body: { handle: joiner.handle, role: 'viewer' } });
    await w.must(204, 'POST', `/v1/workspaces/${w.slug}/accept`, { as: joiner });
    await w.must(204, 'DELETE', `/v1/workspaces/${w.slug}/members/${joiner.handle}`, { as: w.people.owner });
    await flush();

    expect(received.map((r) => r.json.type)).toEqual(['version.committed', 'comment.created', 'comment.resolved', 'member.joined', 'member.left']);
    for (const delivery of received) {
      verify(hook.secret, delivery);
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['atrium-event']).toBe(delivery.json.type);
      expect(delivery.headers['atrium-event-id']).toBe(delivery.json.id);
      expect(delivery.json.workspaceId).toBe(w.workspaceId);
    }
    const [version, comment, resolved, joined, left] = received.map((r) => r.json.data);
    expect(version).toMatchObject({ space: { id: w.spaces.public }, version: { number: 2, message: 'Second' }, diff: { changed: 1 } });
    expect(comment.comment).toMatchObject({ id: thread, spaceId: w.spaces.public, author: { handle: w.people.owner.handle } });
    expect(resolved).toMatchObject({ comment: { id: thread }, by: { handle: w.people.owner.handle } });
    expect(joined).toMatchObject({ target: { type: 'user', label: joiner.handle }, details: { role: 'viewer' } });
    expect(left).toMatchObject({ target: { label: joiner.handle }, details: { removed: true } });

    const { deliveries } = await w.must(200, 'GET', `/v1/webhooks/${hook.id}/deliveries`, { as: w.people.admin });
    expect(deliveries).toHaveLength(5);
    expect(deliveries.every((d: any) => d.status === 'delivered' && d.attempts === 1 && d.responseStatus === 200 && d.responseBody === 'ok')).toBe(true);
    await w.must(204, 'DELETE', `/v1/webhooks/${hook.id}`, { as: w.people.admin });
  });

  it('signs deliveries to an endpoint added before Standard Webhooks with its atrh_ secret, both ways', async () => {
    const hook = await register(['version.committed']);
    const legacy = `atrh_${randomBytes(32).toString('base64url')}`;
    await db.webhookEndpoint.update({ where: { id: hook.id }, data: { secretEncrypted: await encryptSecret(legacy) } });
    await pushAsOwner(w.spaces.public, { ...FILES, 'index.html': '<h1>legacy</h1>' }, 'Legacy');
    await flush();
    expect(received).toHaveLength(1);
    verify(legacy, received[0]);
    // A body changed on the way fails the library's check.
    const headers = Object.fromEntries(Object.entries(received[0].headers).map(([k, v]) => [k, String(v)]));
    expect(() => new Webhook(legacyAsStandard(legacy)).verify(received[0].body.replace('Legacy', 'Forged'), headers)).toThrow();
  });

  it('queues nothing for a change that failed, nor for paused endpoints', async () => {
    const hook = await register(['version.committed']);
    await w.must(200, 'PATCH', `/v1/webhooks/${hook.id}`, { as: w.people.admin, body: { active: false } });
    await pushAsOwner(w.spaces.members, { 'index.html': '<h1>while paused</h1>' }, 'Paused');
    // A commit refused for a missing blob queues nothing either.
    await w.must(409, 'POST', `/v1/spaces/${w.spaces.members}/versions`, { as: w.people.owner, body: { files: [{ path: 'x.txt', sha256: 'a'.repeat(64), size: 1 }] } });
    await flush();
    expect(received).toEqual([]);
    expect(await db.webhookDelivery.count({ where: { endpointId: hook.id } })).toBe(0);
  });

  it('retries a failed delivery with back-off, logs each answer, and gives up after about a day', async () => {
    const hook = await register(['version.committed']);
    answer = { status: 503, body: 'x'.repeat(5000) };
    await pushAsOwner(w.spaces.public, { 'index.html': `<h1>${Math.random()}</h1>` }, 'Retry me');
    await flush();
    let [delivery] = (await w.must(200, 'GET', `/v1/webhooks/${hook.id}/deliveries`, { as: w.people.owner })).deliveries;
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 503, error: null });
    expect(delivery.responseBody).toHaveLength(1024);
    expect(delivery.nextAttemptAt - Date.now()).toBeGreaterThan((RETRY_AFTER_SECONDS[0] - 5) * 1000);
    // Not due yet: nothing is sent again.
    await flush();
    expect(received).toHaveLength(1);

    // Due again, and answered: delivered on the second attempt.
    answer = { status: 204, body: '' };
    const { jobId } = await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    await makeDue(webhookDeliveries, jobId!);
    await flush();
    [delivery] = (await w.must(200, 'GET', `/v1/webhooks/${hook.id}/deliveries`, { as: w.people.owner })).deliveries;
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, responseStatus: 204, nextAttemptAt: null });
    expect(received[1].headers['atrium-event-id']).toBe(received[0].headers['atrium-event-id']);

    // The last attempt of the schedule fails: the delivery is marked failed.
    answer = { status: 500, body: 'down' };
    const id = (await w.must(200, 'POST', `/v1/webhooks/${hook.id}/ping`, { as: w.people.owner })).id;
    await db.webhookDelivery.update({ where: { id }, data: { attempts: RETRY_AFTER_SECONDS.length } });
    await flush();
    const failed = (await w.must(200, 'GET', `/v1/webhooks/${hook.id}/deliveries`, { as: w.people.owner })).deliveries.find((d: any) => d.id === id);
    expect(failed).toMatchObject({ status: 'failed', attempts: RETRY_AFTER_SECONDS.length + 1, nextAttemptAt: null, responseStatus: 500 });
    expect(RETRY_AFTER_SECONDS.reduce((a, b) => a + b, 0) / 3600).toBeGreaterThan(24);

    // Redelivered: a new delivery of the same event, sent at once.
    answer = { status: 200, body: 'ok' };
    const again = await w.must(200, 'POST', `/v1/webhooks/${hook.id}/deliveries/${id}/redeliver`, { as: w.people.admin });
    expect(again).toMatchObject({ status: 'pending', attempts: 0, eventId: failed.eventId });
    await flush();
    expect(received.at(-1)!.json.type).toBe('ping');
    await w.must(404, 'POST', `/v1/webhooks/${hook.id}/deliveries/whd_nothing/redeliver`, { as: w.people.admin });
  });

  it('never sends to loopback, private or link-local addresses unless the operator allows it', async () => {
    config.webhooksAllowPrivate = false;
    const refused = [
      receiverUrl,
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://10.1.2.3/hook',
      'https://192.168.0.10/hook',
      'https://172.20.0.1/hook',
      'https://100.64.0.1/hook',
      'https://[fd00::1]/hook',
      'https://user:pass@example.com/hook',
    ];
    for (const url of refused) {
      const answer = await w.call('POST', `/v1/workspaces/${w.slug}/webhooks`, { as: w.people.owner, body: { url, events: ['version.committed'] } });
      expect([url, answer.status]).toEqual([url, 400]);
      expect(answer.json.error.message).toMatch(/^body\.url: /);
    }
    // Registered while allowed, then the operator forbids it: the delivery is refused at send time.
    config.webhooksAllowPrivate = true;
    const hook = await register(['version.committed'], `https://127.0.0.1:${new URL(receiverUrl).port}/hook`);
    config.webhooksAllowPrivate = false;
    await w.must(200, 'POST', `/v1/webhooks/${hook.id}/ping`, { as: w.people.owner });
    await flush();
    expect(received).toEqual([]);
    const [delivery] = (await w.must(200, 'GET', `/v1/webhooks/${hook.id}/deliveries`, { as: w.people.owner })).deliveries;
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null });
    expect(delivery.error).toMatch(/not a public address/);
    config.webhooksAllowPrivate = true;
  });

  it('shows an endpoint only to its workspace admins: 404 to outsiders, 403 to members', async () => {
    const hook = await register(['comment.created']);
    await w.must(404, 'GET', `/v1/webhooks/${hook.id}`, { as: w.people.outsider });
    await w.must(403, 'GET', `/v1/webhooks/${hook.id}`, { as: w.people.member });
    const outsider = await w.call('GET', `/v1/webhooks/${hook.id}/deliveries`, { as: w.people.outsider });
    expect(outsider.json.error.message).not.toContain(w.slug);
  });

  it('keeps queued deliveries over a restart, and two server processes send each one once', async () => {
    const hook = await register(['version.committed']);
    // Queued while no process sends: this test's process never dispatches by itself.
    for (let i = 0; i < 12; i++) await w.must(200, 'POST', `/v1/webhooks/${hook.id}/ping`, { as: w.people.owner });
    const env = { WEBHOOKS_ALLOW_PRIVATE: 'true' };
    await Promise.all([servers.start(env), servers.start(env)]);
    // One endpoint's deliveries go one at a time, each picked up by a worker's next poll (2 s at most).
    await waitFor('twelve deliveries', () => received.length >= 12, 45_000);
    await new Promise((r) => setTimeout(r, 1500));
    const ids = received.map((r) => r.headers['atrium-delivery']);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    expect(await db.webhookDelivery.count({ where: { endpointId: hook.id, status: 'delivered' } })).toBe(12);
  }, 90_000);
});
