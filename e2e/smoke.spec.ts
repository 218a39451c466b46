import { expect, test } from '@playwright/test';

test('the home page says what Atrium is and links to sign-in and the API reference', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Publish, and work on it together.');
  await expect(page.getByRole('main').getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/signin');
  await page.getByRole('main').getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/\/reference$/);
  await expect(page.getByText('Atrium API').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('/v1/auth/cli/start').first()).toBeVisible();
});

test('a person signs in with the development form and sees their personal workspace', async ({ page }) => {
  await page.goto('/signin');
  await page.getByLabel('Handle').fill('smoke-user');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('region', { name: 'Your account' })).toContainText('Signed in as @smoke-user');
  // The dashboard lists the personal workspace with the person's role.
  const workspaces = page.getByRole('list', { name: 'Your workspaces' });
  await expect(workspaces.getByRole('link', { name: 'smoke-user' })).toHaveAttribute('href', '/w/smoke-user');
  await expect(workspaces).toContainText('owner');

  // The browser's session is a web session to the API as well.
  const me = await page.request.get('/v1/me');
  expect(me.status()).toBe(200);
  expect((await me.json()).user.handle).toBe('smoke-user');
});

test('the API answers unknown routes and wrong methods with its error envelope', async ({ request }) => {
  const missing = await request.get('/v1/no-such-route');
  expect(missing.status()).toBe(404);
  expect((await missing.json()).error.code).toBe('not_found');
  const wrong = await request.put('/v1/me');
  expect(wrong.status()).toBe(405);
  expect(wrong.headers()['allow']).toBe('GET, DELETE');
  const document = await (await request.get('/openapi.json')).json();
  expect(document.openapi).toBe('3.1.0');
});

test('the web app runs under a strict Content-Security-Policy: a fresh nonce per page, and nothing refused', async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
  });
  const first = await page.goto('/signin');
  const policy = first!.headers()['content-security-policy'];
  expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(policy).toContain("object-src 'none'");
  expect(policy).toContain("frame-ancestors 'none'");
  const again = await page.goto('/signin');
  expect(again!.headers()['content-security-policy']).not.toBe(policy);
  // Next's scripts run: the form is interactive (the sign-in below depends on them).
  await page.getByLabel('Handle').fill('csp-user');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('region', { name: 'Your account' })).toContainText('Signed in as @csp-user');
  await page.goto('/reference');
  await expect(page.getByText('Atrium API').first()).toBeVisible({ timeout: 30_000 });
  expect(refused).toEqual([]);
});

test('/favicon.ico leads to the icon, for clients that ask for it whatever the page links', async ({ request }) => {
  const icon = await request.get('/favicon.ico');
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('image/svg+xml');
});
