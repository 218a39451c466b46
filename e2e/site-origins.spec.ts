// Published sites on their own origins (sp-<id>.localhost here), as visitors
// get them in Chromium: storage of their own, protected sites whose pages load
// their styles, images and scripts, members handed over from the app, and no
// site reading another's pages or the app's API as the visitor.
import { createHash } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { signIn } from './helpers.ts';

const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function owner(request: APIRequestContext) {
  const handle = `origin-${Math.random().toString(36).slice(2, 8)}`;
  const { token } = await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json();
  return { handle, headers: { authorization: `Bearer ${token}` } };
}

async function publish(request: APIRequestContext, who: { handle: string; headers: Record<string, string> }, files: Record<string, string | Buffer>, settings: Record<string, unknown> = {}) {
  const { headers } = who;
  const space = await (await request.post('/v1/spaces', { headers, data: { workspace: who.handle, name: 'Own origin' } })).json();
  const entries = Object.entries(files).map(([path, content]) => ({ path, sha256: createHash('sha256').update(content).digest('hex'), size: Buffer.byteLength(content) }));
  const plan = await (await request.post(`/v1/spaces/${space.id}/push/plan`, { headers, data: { files: entries } })).json();
  for (const entry of entries.filter((e) => plan.missing.includes(e.sha256))) {
    expect((await request.put(`/v1/spaces/${space.id}/blobs/${entry.sha256}`, { headers, data: Buffer.from(files[entry.path]) })).status()).toBe(204);
  }
  expect((await request.post(`/v1/spaces/${space.id}/versions`, { headers, data: { files: entries } })).status()).toBe(200);
  if (Object.keys(settings).length) expect((await request.patch(`/v1/spaces/${space.id}`, { headers, data: settings })).status()).toBe(200);
  return { id: space.id as string, url: space.url as string };
}

const STYLED = {
  'index.html': '<!doctype html><html><head><title>Styled</title><link rel="stylesheet" href="style.css"></head><body><h1>Inside</h1><img alt="pixel" src="pixel.png"><script src="app.js"></script></body></html>',
  'style.css': 'h1 { color: rgb(0, 0, 255) }',
  'pixel.png': PIXEL,
  'app.js': "document.body.dataset.ran = 'yes';",
};

async function expectLoaded(page: import('@playwright/test').Page) {
  await expect(page.getByRole('heading', { name: 'Inside' })).toHaveCSS('color', 'rgb(0, 0, 255)');
  await expect(page.locator('body')).toHaveAttribute('data-ran', 'yes');
  await expect.poll(() => page.getByAltText('pixel').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
}

test('each site has an origin of its own, where its script keeps localStorage, apart from the app and other sites', async ({ request, page }) => {
  const me = await owner(request);
  const site = await publish(request, me, {
    'index.html': '<!doctype html><title>Theme</title><p id="out">…</p><script src="theme.js"></script>',
    'theme.js': "localStorage.setItem('theme', 'dark'); document.getElementById('out').textContent = 'theme ' + localStorage.getItem('theme');",
  });
  const other = await publish(request, me, { 'index.html': '<!doctype html><title>Other</title><p>Other site</p>' });
  const origin = new URL(site.url).origin;
  expect(origin).toMatch(/^http:\/\/sp-[a-z0-9]{21}\.localhost:\d+$/);
  expect(new URL(other.url).origin).not.toBe(origin);

  await page.goto(site.url);
  await expect(page.locator('#out')).toHaveText('theme dark');
  await page.reload();
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
  // Another site and the app see none of it.
  await page.goto(other.url);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
  await page.goto('/');
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
});

test('an unlocked password-protected site loads its styles, images and scripts, before and after reload', async ({ request, browser }) => {
  const site = await publish(request, await owner(request), STYLED, { password: 'open sesame' });
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  const asked = await page.goto(site.url);
  expect(asked!.status()).toBe(401);
  await page.getByLabel('Password').fill('open sesame');
  await page.getByRole('button', { name: 'Open' }).click();
  await expectLoaded(page);
  await page.reload();
  await expectLoaded(page);
  await visitor.close();
});

test('a members-only site opens for a signed-in member, handed over from the app, with its sub-resources; strangers get 404', async ({ request, browser }) => {
  const me = await owner(request);
  const site = await publish(request, me, STYLED, { visibility: 'members' });
  const member = await browser.newContext();
  const page = await member.newPage();
  await signIn(page, me.handle);
  await page.goto(site.url);
  expect(new URL(page.url()).origin).toBe(new URL(site.url).origin);
  expect(page.url()).not.toContain('atrium-access');
  await expectLoaded(page);
  await member.close();

  const stranger = await browser.newContext();
  const lost = await stranger.newPage();
  const answer = await lost.goto(site.url);
  expect(answer!.status()).toBe(404);
  await expect(lost.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await stranger.close();
});

test("a site's script cannot read another site's pages, include a members-only site's files, or call the app's API as the visitor", async ({ request, browser }) => {
  const me = await owner(request);
  const secret = await publish(request, me, { 'index.html': '<!doctype html><title>Secret</title><h1>Members area</h1>', 'secret.js': "window.SECRET = 'b-secret';" }, { visibility: 'members' });
  const probe = await publish(request, await owner(request), {
    'index.html': '<!doctype html><title>Probe</title><p id="page">…</p><p id="include">…</p><p id="api">…</p><script src="probe.js"></script>',
    'probe.js': `
      const [other, app] = decodeURIComponent(location.hash.slice(1)).split('|');
      const out = (id, text) => { document.getElementById(id).textContent = text; };
      fetch(other, { credentials: 'include' }).then((r) => r.text()).then((t) => out('page', 'read ' + t.slice(0, 60)), () => out('page', 'blocked'));
      fetch(app + '/v1/me', { credentials: 'include' }).then((r) => r.text()).then((t) => out('api', 'read ' + t.slice(0, 60)), () => out('api', 'blocked'));
      const s = document.createElement('script');
      s.src = other + 'secret.js';
      s.onload = () => out('include', typeof window.SECRET === 'string' ? 'leaked ' + window.SECRET : 'loaded');
      s.onerror = () => out('include', 'refused');
      document.head.appendChild(s);`,
  });
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  // The visitor is signed in to the app and has opened the members-only site, so both hold cookies.
  await signIn(page, me.handle);
  await page.goto(secret.url);
  await expect(page.getByRole('heading', { name: 'Members area' })).toBeVisible();
  const app = new URL(test.info().project.use.baseURL!).origin;
  await page.goto(`${probe.url}#${encodeURIComponent(`${secret.url}|${app}`)}`);
  await expect(page.locator('#page')).toHaveText('blocked');
  await expect(page.locator('#api')).toHaveText('blocked');
  await expect(page.locator('#include')).toHaveText('refused');
  await visitor.close();
});
