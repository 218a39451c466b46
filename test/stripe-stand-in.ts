// A small local stand-in for Stripe's API: just the calls Atrium makes
// (customers, Checkout and portal sessions, subscriptions, subscription
// schedules), kept in memory, reached by the real SDK through its
// host/port/protocol options (BILLING_PROVIDER_API_URL). Tests drive what
// "happened at Stripe" with its helpers and send the webhook events Stripe
// would send, signed with the SDK's own generateTestHeaderString. Used by the
// Vitest billing tests and the browser's billing journey (e2e/billing.spec.ts).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export const PRICES = { pro: 'price_pro_test', team: 'price_team_test', enterprise: 'price_enterprise_test' } as const;
export const WEBHOOK_SECRET = 'whsec_standin_secret';
export const SECRET_KEY = 'sk_test_standin';
const MONTH = 30 * 24 * 3600;

type Json = Record<string, any>;
export type Recorded = { method: string; path: string; body: Json; idempotencyKey: string | null };

/** `items[0][price]=p&metadata[a]=b` → `{ items: [{ price: 'p' }], metadata: { a: 'b' } }`. */
function parseForm(text: string): Json {
  const out: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let at: any = out;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]);
      if (last) at[part] = value;
      else at = at[part] ??= nextIsIndex ? [] : {};
    });
  }
  return out;
}

const now = () => Math.floor(Date.now() / 1000);
let counter = 0;
const id = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++counter).toString(36)}`;

export class StripeStandIn {
  server!: Server;
  url = '';
  requests: Recorded[] = [];
  customers = new Map<string, Json>();
  subscriptions = new Map<string, Json>();
  schedules = new Map<string, Json>();
  /** Make the next calls fail with this status (e.g. Stripe down). */
  failWith: number | null = null;
  /** Objects answered with a bare 404, without Stripe's `resource_missing` code (as a proxy or another API version may). */
  gone = new Set<string>();

  price(priceId: string): Json {
    return { id: priceId, object: 'price', metadata: priceId === PRICES.enterprise ? { atrium_plan: 'enterprise' } : {} };
  }

  /** A subscription as Stripe would hold it once a Checkout Session is paid. */
  subscribe(customer: string, plan: keyof typeof PRICES, workspaceId: string, status = 'active'): Json {
    const start = now();
    const sub = {
      id: id('sub'),
      object: 'subscription',
      status,
      customer,
      metadata: { atrium_workspace: workspaceId },
      cancel_at_period_end: false,
      cancel_at: null,
      schedule: null,
      items: { object: 'list', data: [{ id: id('si'), object: 'subscription_item', price: this.price(PRICES[plan]), quantity: 1, current_period_start: start, current_period_end: start + MONTH }] },
    };
    this.subscriptions.set(sub.id, sub);
    return sub;
  }

  /** Ends a paid period: the schedule's next phase (or the cancellation) takes effect, as Stripe would do it. */
  endPeriod(subscriptionId: string) {
    const sub = this.subscriptions.get(subscriptionId)!;
    if (sub.cancel_at_period_end) {
      sub.status = 'canceled';
      return sub;
    }
    const schedule = sub.schedule && this.schedules.get(sub.schedule);
    if (schedule?.phases[1]) {
      sub.items.data[0].price = this.price(schedule.phases[1].items[0].price);
      schedule.status = 'released';
      sub.schedule = null;
    }
    const item = sub.items.data[0];
    item.current_period_start = item.current_period_end;
    item.current_period_end += MONTH;
    return sub;
  }

  /** An event as Stripe sends it, with its signed header. */
  event(type: string, object: Json, eventId = id('evt')) {
    const payload = JSON.stringify({ id: eventId, object: 'event', api_version: '2026-10-28.endive', created: now(), type, data: { object }, livemode: false, pending_webhooks: 1 });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    return { id: eventId, payload, header };
  }

  private answer(method: string, path: string, body: Json): [number, Json] {
    const sub = (subId: string) => this.subscriptions.get(subId);
    const notFound: [number, Json] = [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such object: ${path}` } }];
    if (this.gone.has(path.split('/').at(-1)!)) return [404, { error: { type: 'invalid_request_error', message: `No such object: ${path}` } }];
    let m: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: id('cus'), object: 'customer', name: body.name ?? null, metadata: body.metadata ?? {} };
      this.customers.set(customer.id, customer);
      return [200, customer];
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const sessionId = id('cs');
      return [200, { id: sessionId, object: 'checkout.session', mode: body.mode, customer: body.customer, client_reference_id: body.client_reference_id, metadata: body.metadata ?? {}, subscription: null, status: 'open', url: `https://checkout.stripe.test/c/pay/${sessionId}` }];
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const sessionId = id('bps');
      return [200, { id: sessionId, object: 'billing_portal.session', customer: body.customer, return_url: body.return_url, url: `https://billing.stripe.test/p/session/${sessionId}` }];
    }
    if ((m = path.match(/^\/v1\/subscriptions\/([\w]+)$/))) {
      const found = sub(m[1]);
      if (!found) return notFound;
      if (method === 'GET') return [200, found];
      if (body.cancel_at_period_end !== undefined) {
        found.cancel_at_period_end = body.cancel_at_period_end === 'true';
        found.cancel_at = found.cancel_at_period_end ? found.items.data[0].current_period_end : null;
      }
      if (body.items?.[0]?.price) found.items.data[0].price = this.price(body.items[0].price);
      if (body.metadata) found.metadata = { ...found.metadata, ...body.metadata };
      return [200, found];
    }
    if (method === 'POST' && path === '/v1/subscription_schedules') {
      const from = sub(body.from_subscription);
      if (!from) return notFound;
      if (from.schedule) return [400, { error: { type: 'invalid_request_error', message: 'This subscription is already attached to a schedule.' } }];
      const item = from.items.data[0];
      const schedule = { id: id('sub_sched'), object: 'subscription_schedule', status: 'active', subscription: from.id, end_behavior: 'release', phases: [{ start_date: item.current_period_start, end_date: item.current_period_end, items: [{ price: item.price.id, quantity: 1 }] }] };
      this.schedules.set(schedule.id, schedule);
      from.schedule = schedule.id;
      return [200, schedule];
    }
    if ((m = path.match(/^\/v1\/subscription_schedules\/([\w]+)(\/release)?$/))) {
      const schedule = this.schedules.get(m[1]);
      if (!schedule) return notFound;
      if (method === 'GET') return [200, schedule];
      if (m[2]) {
        schedule.status = 'released';
        const owner = sub(schedule.subscription);
        if (owner) owner.schedule = null;
        return [200, schedule];
      }
      if (body.phases) {
        let start = Number(body.phases[0].start_date);
        schedule.phases = body.phases.map((phase: Json) => {
          const end = phase.end_date ? Number(phase.end_date) : start + MONTH;
          const out = { start_date: Number(phase.start_date ?? start), end_date: end, items: phase.items.map((i: Json) => ({ price: i.price, quantity: Number(i.quantity ?? 1) })) };
          start = end;
          return out;
        });
      }
      if (body.end_behavior) schedule.end_behavior = body.end_behavior;
      return [200, schedule];
    }
    return notFound;
  }

  async start() {
    this.server = createServer(async (request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const url = new URL(request.url ?? '/', 'http://stand-in');
      const body = parseForm(request.method === 'GET' ? url.search.slice(1) : Buffer.concat(chunks).toString());
      this.requests.push({ method: request.method!, path: url.pathname, body, idempotencyKey: (request.headers['idempotency-key'] as string) ?? null });
      const authorized = request.headers.authorization === `Bearer ${SECRET_KEY}`;
      const [status, json] = !authorized
        ? [401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }]
        : this.failWith
          ? [this.failWith, { error: { type: 'api_error', message: 'Stand-in failure' } }]
          : this.answer(request.method!, url.pathname, body);
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
      response.end(JSON.stringify(json));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
