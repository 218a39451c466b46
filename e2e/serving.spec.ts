// Published sites as visitors get them from the running server.
import { createHash } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { signIn } from './helpers.ts';
import { encodeNoise, webm } from './webm.ts';

async function publish(request: APIRequestContext, files: Record<string, string | Buffer>, settings: Record<string, unknown> = {}) {
  const handle = `site-${Math.random().toString(36).slice(2, 8)}`;
  const { token } = await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json();
  const headers = { authorization: `Bearer ${token}` };
  const space = await (await request.post('/v1/spaces', { headers, data: { workspace: handle, name: 'Served site' } })).json();
  const entries = Object.entries(files).map(([path, content]) => ({
    path,
    sha256: createHash('sha256').update(content).digest('hex'),
    size: Buffer.byteLength(content),
  }));
  const plan = await (await request.post(`/v1/spaces/${space.id}/push/plan`, { headers, data: { files: entries } })).json();
  for (const entry of entries.filter((e) => plan.missing.includes(e.sha256))) {
    const put = await request.put(`/v1/spaces/${space.id}/blobs/${entry.sha256}`, { headers, data: Buffer.from(files[entry.path]) });
    expect(put.status()).toBe(204);
  }
  expect((await request.post(`/v1/spaces/${space.id}/versions`, { headers, data: { files: entries } })).status()).toBe(200);
  if (Object.keys(settings).length) expect((await request.patch(`/v1/spaces/${space.id}`, { headers, data: settings })).status()).toBe(200);
  return { id: space.id as string, url: space.url as string };
}

/** A request to the site's own host: Node does not resolve *.localhost as browsers do, so it goes to loopback with the site's Host. */
function onSite(site: { url: string }, path: string): [string, { host: string }] {
  const url = new URL(site.url);
  return [`http://127.0.0.1:${url.port}${path}`, { host: url.host }];
}

test('a published site is served on its own host with its pages, folders, 404 page and ETags', async ({ request, page }) => {
  const site = await publish(request, {
    'index.html': '<h1>Welcome to the site</h1><a href="about/">About</a>',
    'about/index.html': '<h1>About us</h1>',
    '404.html': '<h1>Lost?</h1>',
    'style.css': 'h1 { color: navy }',
  });
  // /s/<id>/ on the app leads to the site's own host.
  const moved = await request.get(`/s/${site.id}/about/`, { maxRedirects: 0 });
  expect(moved.status()).toBe(303);
  expect(moved.headers().location).toBe(`${site.url}about/`);

  const home = await request.get(...onSiteOptions(site, '/'));
  expect(home.status()).toBe(200);
  const headers = home.headers();
  expect(headers['content-type']).toContain('text/html');
  expect(headers['x-content-type-options']).toBe('nosniff');
  // Only the app's own pages may frame it (an app's preview), never another site.
  expect(headers['content-security-policy']).toMatch(/^frame-ancestors 'self' http:\/\/localhost:\d+$/);
  expect(headers['x-frame-options']).toBeUndefined();
  expect(headers.etag).toBeTruthy();
  const [again, host] = onSite(site, '/');
  expect((await request.get(again, { headers: { ...host, 'if-none-match': headers.etag } })).status()).toBe(304);

  expect((await request.get(...onSiteOptions(site, '/style.css'))).headers()['content-type']).toContain('text/css');
  const [about, aboutHost] = onSite(site, '/about');
  const folder = await request.get(about, { headers: aboutHost, maxRedirects: 0 });
  expect(folder.status()).toBe(301);
  expect(folder.headers().location).toBe(`${site.url}about/`);
  const missing = await request.get(...onSiteOptions(site, '/nope.html'));
  expect(missing.status()).toBe(404);
  expect(await missing.text()).toContain('Lost?');
  // The app's pages and API are not answered on a site's host.
  expect((await request.get(...onSiteOptions(site, '/v1/me'))).status()).toBe(404);

  await page.goto(site.url);
  await expect(page.getByRole('heading', { name: 'Welcome to the site' })).toBeVisible();
  await page.getByRole('link', { name: 'About' }).click();
  await expect(page.getByRole('heading', { name: 'About us' })).toBeVisible();
});

function onSiteOptions(site: { url: string }, path: string): [string, { headers: { host: string } }] {
  const [url, host] = onSite(site, path);
  return [url, { headers: host }];
}

test('a members-only site is not found for visitors, and a password-protected one asks for its password', async ({ request, browser }) => {
  const closed = await publish(request, { 'index.html': '<h1>Members only</h1>' }, { visibility: 'members' });
  expect((await request.get(`/s/${closed.id}/`)).status()).toBe(404);

  const locked = await publish(request, { 'index.html': '<h1>Secret page</h1>' }, { password: 'open sesame' });
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  // The space's page in the app says where the password goes, rather than failing.
  await page.goto(`/spaces/${locked.id}`);
  await expect(page.getByRole('heading', { name: 'This space is protected by a password' })).toBeVisible();
  await page.getByRole('link', { name: 'Open the site' }).click();
  await expect(page).toHaveURL(locked.url);
  const asked = await page.goto(locked.url);
  expect(asked!.status()).toBe(401);
  // The site's host has no stylesheet of the app's, yet the page reads as Atrium's: its font and logo.
  const siteFont = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  await expect(page.getByRole('banner').locator('svg')).toBeVisible();
  await page.getByLabel('Password').fill('wrong');
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByText('Wrong password.')).toBeVisible();
  await page.getByLabel('Password').fill('open sesame');
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('heading', { name: 'Secret page' })).toBeVisible();
  await page.goto('/signin');
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toBe(siteFont);
  await visitor.close();
});

test('an alias serves its version at an address of its own, and the History tab lists it', async ({ request, page }) => {
  const handle = `alias-${Math.random().toString(36).slice(2, 8)}`;
  const { token } = await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json();
  const headers = { authorization: `Bearer ${token}` };
  const space = await (await request.post('/v1/spaces', { headers, data: { workspace: handle, name: 'Previewed' } })).json();
  for (const [n, text] of [[1, '<h1>First</h1>'], [2, '<h1>Second</h1>']] as const) {
    const entry = { path: 'index.html', sha256: createHash('sha256').update(text).digest('hex'), size: Buffer.byteLength(text) };
    await request.put(`/v1/spaces/${space.id}/blobs/${entry.sha256}`, { headers, data: Buffer.from(text) });
    const committed = await (await request.post(`/v1/spaces/${space.id}/versions`, { headers, data: { files: [entry], ...(n === 1 ? { alias: 'pr-1' } : {}) } })).json();
    expect(committed.version.number).toBe(n);
  }
  const { aliases } = await (await request.get(`/v1/spaces/${space.id}/aliases`, { headers })).json();
  expect(aliases).toMatchObject([{ name: 'pr-1', version: 1 }]);
  await page.goto(aliases[0].url);
  await expect(page.getByRole('heading', { name: 'First' })).toBeVisible();
  await page.goto(space.url);
  await expect(page.getByRole('heading', { name: 'Second' })).toBeVisible();

  await signIn(page, handle);
  await page.goto(`/spaces/${space.id}/history`);
  const listed = page.getByRole('list', { name: 'Aliases' });
  await expect(listed.getByRole('listitem').filter({ hasText: 'pr-1' })).toContainText(aliases[0].url);
  // At 1280 px the whole address and its Copy button show.
  const copy = listed.getByRole('button', { name: 'Copy the address of pr-1' });
  await copy.scrollIntoViewIfNeeded();
  await expect(copy).toBeInViewport({ ratio: 1 });
  const link = listed.getByRole('link', { name: aliases[0].url });
  await link.scrollIntoViewIfNeeded();
  await expect(link).toBeInViewport({ ratio: 1 });

  // An alias is made here too, and a name the API refuses is explained in words.
  const form = page.getByRole('form', { name: 'Set an alias' });
  await form.getByLabel('Alias name').fill('Not OK!');
  await form.getByRole('button', { name: 'Set alias' }).click();
  await expect(form.getByRole('alert')).toHaveText(/^Name must be 1 to 30 lowercase letters/);
  await form.getByLabel('Alias name').fill('review');
  await form.getByLabel('Version').selectOption('2');
  await form.getByRole('button', { name: 'Set alias' }).click();
  await expect(listed.getByRole('listitem').filter({ hasText: 'review' })).toContainText('version 2');

  // A comment written on the preview is on its version and names the alias.
  await listed.getByRole('link', { name: 'Comments through pr-1' }).click();
  await expect(page.getByText('On the preview pr-1 (version 1)')).toBeVisible();
  await page.getByRole('link', { name: 'Review the preview’s home page' }).click();
  await page.getByRole('link', { name: 'Show the source' }).click();
  await expect(page.getByRole('region', { name: 'File index.html' })).toContainText('First');
  const comment = page.getByRole('form', { name: 'New comment' });
  await comment.getByRole('textbox', { name: 'Comment' }).fill('Looks right on the preview');
  await comment.getByRole('button', { name: 'Comment' }).click();
  await expect(page.getByRole('listitem', { name: `Thread by @${handle}` })).toContainText('via pr-1');
  const { threads } = await (await request.get(`/v1/spaces/${space.id}/comments?path=index.html&v=1`, { headers })).json();
  expect(threads).toMatchObject([{ alias: 'pr-1', versionNumber: 1, body: 'Looks right on the preview' }]);
});

test('a 2 MB video plays and seeks from a published site, read by byte ranges', async ({ request, page }) => {
  // Encoded by this Chromium on the app's page (WebCodecs needs a secure context: localhost is one).
  await page.goto('/openapi.json');
  const clip = webm(await encodeNoise(page, 7));
  expect(clip.length).toBeGreaterThan(2_000_000);
  const site = await publish(request, { 'index.html': '<video src="clip.webm" preload="metadata" muted></video>', 'clip.webm': clip });
  const answers: { status: number; range: string | undefined }[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/clip.webm') answers.push({ status: response.status(), range: response.headers()['content-range'] });
  });

  await page.goto(site.url);
  const video = page.locator('video');
  const duration = await video.evaluate(
    (v: HTMLVideoElement) =>
      new Promise<number>((resolve, reject) => {
        if (v.readyState >= HTMLMediaElement.HAVE_METADATA) resolve(v.duration);
        v.onloadedmetadata = () => resolve(v.duration);
        v.onerror = () => reject(new Error(`the video failed: ${v.error?.message}`));
      }),
  );
  expect(duration).toBeCloseTo(7, 1);
  // Far into it: the player reads the cues, then asks for the bytes from that cluster on.
  const seekedTo = await video.evaluate(
    (v: HTMLVideoElement) =>
      new Promise<number>((resolve, reject) => {
        v.onseeked = () => resolve(v.currentTime);
        v.onerror = () => reject(new Error(`the video failed: ${v.error?.message}`));
        v.currentTime = 6;
      }),
  );
  expect(seekedTo).toBeCloseTo(6, 1);
  await video.evaluate((v: HTMLVideoElement) => v.play());
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(6.3);
  expect(await video.evaluate((v: HTMLVideoElement) => v.error)).toBeNull();

  // Every answer was a range of the file, and the seek asked for one past its start.
  expect(answers.length).toBeGreaterThan(1);
  for (const answer of answers) expect(answer).toEqual({ status: 206, range: expect.stringMatching(new RegExp(`^bytes \\d+-\\d+/${clip.length}$`)) });
  expect(answers.some((answer) => Number(/^bytes (\d+)/.exec(answer.range ?? '')?.[1]) > clip.length / 2)).toBe(true);
});
