// The billing page in a browser, with billing set up: a second Atrium server
// started by this file, whose Stripe is the local stand-in of the Vitest
// billing tests (test/stripe-stand-in.ts). Stripe's own pages (Checkout, the
// portal) are answered by the browser's route handler, as nothing else is
// reachable; what happened at Stripe is told to Atrium by signed webhook events.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { PRICES, SECRET_KEY, StripeStandIn, WEBHOOK_SECRET } from '../test/stripe-stand-in.ts';

const port = Number(process.env.E2E_PORT ?? 3210) + 2;
const base = `http://localhost:${port}`;
const root = path.resolve(import.meta.dirname, '..');
const stand = new StripeStandIn();
let server: ChildProcess;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await stand.start();
  server = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: base,
      DEV_AUTH: 'true',
      DATA_DIR: path.join(process.env.E2E_DATA_DIR ?? '.atrium/e2e', 'billing'),
      BILLING_PROVIDER_SECRET_KEY: SECRET_KEY,
      BILLING_PROVIDER_WEBHOOK_SECRET: WEBHOOK_SECRET,
      BILLING_PRICE_PRO: PRICES.pro,
      BILLING_PRICE_TEAM: PRICES.team,
      BILLING_PRICE_ENTERPRISE: PRICES.enterprise,
      BILLING_PROVIDER_API_URL: stand.url,
    },
  });
  const deadline = Date.now() + 170_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the billing server exited with ${server.exitCode}`);
    if (await fetch(`${base}/openapi.json`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error('the billing server did not start');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await stand.stop();
});

/** Stripe's pages: the browser is sent there by the API's answer; here they are a page that says where it is. */
async function standInPages(page: Page) {
  await page.route(/^https:\/\/(checkout|billing)\.stripe\.test\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: `<title>Stripe stand-in</title><h1>${new URL(route.request().url()).hostname}</h1>` }),
  );
}

async function deliver(type: string, object: Record<string, unknown>) {
  const event = stand.event(type, object);
  const answer = await fetch(`${base}/v1/billing/webhook`, { method: 'POST', headers: { 'stripe-signature': event.header, 'content-type': 'application/json' }, body: event.payload });
  expect(answer.status).toBe(200);
}

test('an owner upgrades through Checkout, sees the paid plan and its limits, opens the portal, schedules a downgrade and keeps the plan', async ({ browser }) => {
  const page = await (await browser.newContext({ baseURL: base })).newPage();
  await standInPages(page);
  await page.goto('/signin');
  await page.getByLabel('Handle').fill('bill-owner');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/w/new');
  await page.getByLabel('Name', { exact: true }).fill('Billing Team');
  await page.getByLabel('Slug').fill('bill-team');
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page).toHaveURL(/\/w\/bill-team$/);

  // Free: the limits, the usage against them, and the paid plans to choose.
  await page.getByRole('link', { name: 'Billing', exact: true }).click();
  await expect(page).toHaveURL(/\/w\/bill-team\/billing$/);
  await expect(page.getByRole('heading', { name: 'Free plan' })).toBeVisible();
  await expect(page.getByRole('meter', { name: 'Seats' })).toHaveAttribute('aria-valuemax', '3');
  await expect(page.getByRole('meter', { name: 'Seats' })).toHaveAttribute('aria-valuenow', '1');
  await expect(page.getByText('Your plan')).toBeVisible();

  // Upgrading sends the browser to Stripe's Checkout page.
  await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
  await expect(page).toHaveURL(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_/);
  const session = stand.requests.find((r) => r.path === '/v1/checkout/sessions')!;
  expect(session.body.line_items[0].price).toBe(PRICES.pro);

  // Paid at Stripe: the webhook tells Atrium, and the page shows Pro with its limits.
  const sub = stand.subscribe(session.body.customer, 'pro', session.body.client_reference_id);
  await deliver('checkout.session.completed', { id: 'cs_paid', object: 'checkout.session', client_reference_id: session.body.client_reference_id, customer: sub.customer, subscription: sub.id, metadata: {} });
  await page.goto('/w/bill-team/billing');
  await expect(page.getByRole('heading', { name: 'Pro plan' })).toBeVisible();
  await expect(page.getByText(/Status: active · renews/)).toBeVisible();
  await expect(page.getByRole('meter', { name: 'Seats' })).toHaveAttribute('aria-valuemax', '10');

  // Invoices and the payment method live in Stripe's portal.
  await page.getByRole('button', { name: 'Invoices and payment method' }).click();
  await expect(page).toHaveURL(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_/);

  // Downgrading waits for the end of the paid period; keeping the plan drops the waiting change.
  await page.goto('/w/bill-team/billing');
  await page.getByRole('button', { name: 'Downgrade to Free' }).click();
  await expect(page.getByText(/The subscription ends on/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Pro plan' })).toBeVisible();
  await page.getByRole('button', { name: 'Keep my plan' }).click();
  await expect(page.getByText(/The subscription ends on/)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Pro plan' })).toBeVisible();
});
