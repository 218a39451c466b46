// Deploy from the browser, as Netlify Drop does: a folder (chosen or dropped)
// or a .zip becomes a new version through plan / upload / commit, with
// progress and a link to the version; the empty space shows the CLI commands
// for it. Visitors who cannot push see neither. And Build app offers the
// room's pages. Checked at both widths, light and dark, with axe.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { expect, test } from '@playwright/test';
import { expectEveryLook, signIn } from './helpers.ts';

const zip = (files: Record<string, string>) => Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([p, text]) => [p, new TextEncoder().encode(text)]))));

test('a folder, a .zip and a drop each publish a version from the space page; visitors see no drop area', async ({ page, request, browser, context }) => {
  test.setTimeout(180_000);
  const handle = `dropper-${Date.now().toString(36)}`;
  const { token } = await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json();
  const headers = { authorization: `Bearer ${token}` };
  const space = await (await request.post('/v1/spaces', { headers, data: { workspace: handle, name: 'Dropped site' } })).json();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, handle);
  await page.goto(`/spaces/${space.id}`);

  // The empty space: the drop area and this space's exact commands, each with a copy button.
  await expect(page.getByRole('heading', { name: 'Publish a new version' })).toBeVisible();
  const command = `atrium push ./dist --space ${space.id}`;
  await expect(page.getByText(command, { exact: true })).toBeVisible();
  await page.getByRole('button', { name: `Copy: ${command}` }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
  await expectEveryLook(page, 'deploy-empty');

  // A chosen folder: its own name is not a folder of the site, its dotfiles are left out.
  const root = mkdtempSync(path.join(tmpdir(), 'atrium-drop-'));
  const dist = path.join(root, 'dist');
  mkdirSync(path.join(dist, 'css'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Dropped</title><h1>Hello from a folder</h1>');
  writeFileSync(path.join(dist, 'css', 'site.css'), 'h1 { color: teal; }');
  writeFileSync(path.join(dist, '.DS_Store'), 'junk');
  // Uploads are held until the progress has been seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/v1/spaces/*/blobs/*', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel('Folder to publish').setInputFiles(dist);
  await expect(page.getByRole('progressbar', { name: 'Uploading files' })).toBeVisible();
  await expect(page.getByText(/^Hashed 2 of 2 files · uploaded 0 bytes of \d+ bytes$/)).toBeVisible();
  await expectEveryLook(page, 'deploy-progress');
  release();
  const status = page.getByRole('status').filter({ hasText: 'Published' });
  await expect(status).toHaveText(/Published version 1 \(2 files\)/);
  await page.unroute('**/v1/spaces/*/blobs/*');
  // The page shows the version's files now, and the answer stays.
  await expect(page.getByRole('navigation', { name: 'Files' })).toContainText('index.html');
  await expect(page.getByRole('navigation', { name: 'Files' })).toContainText('css/');
  await expectEveryLook(page, 'deploy-done');
  await status.getByRole('link', { name: 'version 1' }).click();
  await expect(page).toHaveURL(new RegExp(`/spaces/${space.id}\\?v=1$`));
  const v1 = await (await request.get(`/v1/spaces/${space.id}/versions/1`, { headers })).json();
  expect(v1.files.map((f: { path: string }) => f.path).sort()).toEqual(['css/site.css', 'index.html']);

  // A .zip of a folder, with a Mac's __MACOSX: unpacked, its top folder stripped.
  await page.getByLabel('Zip file to publish').setInputFiles({
    name: 'site.zip',
    mimeType: 'application/zip',
    buffer: zip({ 'site/index.html': '<h1>Hello from a zip</h1>', 'site/about.html': '<h1>About</h1>', 'site/.DS_Store': 'x', '__MACOSX/site/._index.html': 'x' }),
  });
  await expect(page.getByRole('status').filter({ hasText: 'Published' })).toHaveText(/Published version 2 \(2 files\)/);
  const v2 = await (await request.get(`/v1/spaces/${space.id}/versions/2`, { headers })).json();
  expect(v2.files.map((f: { path: string }) => f.path).sort()).toEqual(['about.html', 'index.html']);
  expect(v2.version.message).toBe('Published from the browser (site.zip)');

  // Files dropped on the area: published at the root.
  await page.getByText('Choose a folder').evaluate((target) => {
    const data = new DataTransfer();
    data.items.add(new File(['<h1>Dropped</h1>'], 'index.html', { type: 'text/html' }));
    target.closest('div')!.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await expect(page.getByRole('status').filter({ hasText: 'Published' })).toHaveText(/Published version 3 \(1 file\)/);

  // Failures say why, in the API's words where the API refused.
  await page.getByLabel('Zip file to publish').setInputFiles({ name: 'broken.zip', mimeType: 'application/zip', buffer: Buffer.from('not a zip') });
  await expect(page.getByRole('alert').filter({ hasText: 'broken.zip cannot be read as a zip file' })).toBeVisible();
  await page.getByLabel('Zip file to publish').setInputFiles({ name: 'long.zip', mimeType: 'application/zip', buffer: zip({ [`${'a'.repeat(1100)}.html`]: 'x' }) });
  await expect(page.getByRole('alert').filter({ hasText: 'longer than 1024 characters' })).toBeVisible();

  // A visitor who cannot push sees the site's files, but no drop area; an empty space shows them no commands.
  const empty = await (await request.post('/v1/spaces', { headers, data: { workspace: handle, name: 'Still empty' } })).json();
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/spaces/${space.id}`);
  await expect(visitor.getByRole('navigation', { name: 'Files' })).toContainText('index.html');
  await expect(visitor.getByRole('heading', { name: 'Publish a new version' })).toHaveCount(0);
  await expect(visitor.getByLabel('Folder to publish')).toHaveCount(0);
  await visitor.goto(`/spaces/${empty.id}`);
  await expect(visitor.getByText('Nothing is published yet')).toBeVisible();
  await expect(visitor.getByText(/atrium push/)).toHaveCount(0);
  await expect(visitor.getByLabel('Zip file to publish')).toHaveCount(0);
});

test('Build app and Rebuild preview offer the room’s pages and build the one chosen', async ({ page, request }) => {
  test.setTimeout(120_000);
  const handle = `builder-${Date.now().toString(36)}`;
  const { token } = await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json();
  // The "app" template has two pages: Idea, then Data.
  expect((await request.post('/v1/rooms', { headers: { authorization: `Bearer ${token}` }, data: { workspace: handle, name: 'Idea room', template: 'app' } })).status()).toBe(200);
  await signIn(page, handle);
  await page.goto(`/w/${handle}/apps`);
  const room = page.getByRole('list', { name: 'Rooms' }).getByRole('listitem').filter({ hasText: 'Idea room' });
  const picker = room.getByLabel('Page');
  // The first page is chosen unless another is.
  await expect(picker.locator('option')).toHaveText(['Idea', 'Data']);
  await expect(picker.locator('option:checked')).toHaveText('Idea');
  await picker.selectOption({ label: 'Data' });
  await expectEveryLook(page, 'build-app-picker');
  await room.getByRole('button', { name: 'Build app' }).click();
  await expect(page).toHaveURL(/\/apps\/app_\w+$/);
  const preview = page.frameLocator('iframe[title="Preview"]');
  await expect(preview.getByRole('heading', { level: 1 })).toHaveText('Data');

  // Rebuilding starts from the page built last, and can build another.
  const rebuild = page.getByLabel('Page');
  await expect(rebuild.locator('option:checked')).toHaveText('Data');
  await rebuild.selectOption({ label: 'Idea' });
  await page.getByRole('button', { name: 'Rebuild preview' }).click();
  await expect(page.getByRole('heading', { name: 'Preview (version 2)' })).toBeVisible();
  await expect(preview.getByRole('heading', { level: 1 })).toHaveText('App idea');
  await expectEveryLook(page, 'rebuild-app-picker');
});
