// The web app as a new person meets it, at desktop and phone widths: the
// dashboard and its first-run guide, the shell's navigation, the space pages
// (markdown links, history diffs, restore), the 404 page, confirm dialogs
// and toasts, and no page wider than a 390-pixel screen. An axe check runs on
// the main pages; screenshots are kept under .atrium/test-results/screenshots.
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { expectAccessible, expectNoSideways, signIn, push } from './helpers.ts';

const SHOTS = '.atrium/test-results/screenshots';
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const LONG_LINE = `<p>${'averyveryverylongwordwithoutanyspaces'.repeat(8)}</p><pre>${'const x = 1; '.repeat(40)}</pre>`;

for (const size of WIDTHS) {
  test.describe(`at ${size.width} pixels`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('a new person finds the dashboard, a space, its history and the way home', async ({ page, request }) => {
      const handle = `web-${size.name}-${randomBytes(3).toString('hex')}`;
      await signIn(page, handle);

      // The dashboard, empty: a first-run guide with commands to copy, and a call to create a space.
      await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
      const guide = page.getByRole('region', { name: 'Publish your first site' });
      await expect(guide).toContainText('atrium login');
      // Only what works today: the package built from this server's checkout, never a name on npm the project does not own.
      await expect(guide).toContainText('npm run pack:cli');
      await expect(guide).not.toContainText('npm install -g atrium-cli');
      await expect(guide.getByRole('button', { name: /Copy: atrium init \.\/site/ })).toBeVisible();
      await expect(guide.getByRole('button', { name: /Copy: atrium push/ })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
      await expectNoSideways(page);
      await expectAccessible(page);

      // A space with a README linking to another page, and long lines.
      const { token } = await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json();
      const space = await (await request.post('/v1/spaces', { headers: { authorization: `Bearer ${token}` }, data: { workspace: handle, name: 'Handbook', visibility: 'public' } })).json();
      await push(request, token, space.id, { 'README.md': '# Handbook\n\nSee [about](about/index.html).\n', 'about/index.html': LONG_LINE, 'notes.txt': 'one\ntwo\nthree\n' }, 'First');
      await push(request, token, space.id, { 'README.md': '# Handbook\n\nSee [about](about/index.html).\n', 'about/index.html': LONG_LINE, 'notes.txt': 'one\n2\nthree\n' }, 'Second');

      await page.goto('/');
      const spaces = page.getByRole('list', { name: 'Your spaces' });
      await expect(spaces).toContainText('Handbook');
      await expect(spaces).toContainText('Version 2');
      await expect(page.getByRole('list', { name: 'Recent activity' })).toContainText(`@${handle} published version 2 of Handbook`);
      await expect(page.getByRole('region', { name: 'Publish your first site' })).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/dashboard-${size.name}.png`, fullPage: true });

      // The space: breadcrumbs back to its workspace, markdown links that resolve within the space.
      await spaces.getByRole('link', { name: 'Handbook' }).click();
      await expect(page).toHaveURL(new RegExp(`/spaces/${space.id}$`));
      await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: handle })).toHaveAttribute('href', `/w/${handle}/spaces`);
      // The folder's files are listed once: beside the page on a desktop, in the page on a phone.
      await page.getByRole('link', { name: 'README.md', exact: true }).filter({ visible: true }).first().click();
      const readme = page.getByRole('region', { name: 'File README.md' });
      await readme.getByRole('link', { name: 'about' }).click();
      await expect(page).toHaveURL(new RegExp(`/spaces/${space.id}\\?path=about%2Findex.html$`));
      await expect(page.getByRole('region', { name: 'File about/index.html' })).toBeVisible();
      await expectNoSideways(page);
      await page.screenshot({ path: `${SHOTS}/space-${size.name}.png`, fullPage: true });
      await expectAccessible(page);

      // History: a line diff, an address for the version's site, and restoring version 1.
      await page.getByRole('navigation', { name: 'Space' }).getByRole('link', { name: 'History' }).click();
      await expect(page).toHaveURL(new RegExp(`/spaces/${space.id}/history$`));
      const diff = page.getByRole('figure', { name: 'Diff of notes.txt' });
      await expect(diff).toContainText('removed: two');
      await expect(diff).toContainText('added: 2');
      await expectNoSideways(page);
      await page.getByRole('table', { name: 'Versions' }).getByRole('link', { name: '1', exact: true }).click();
      await expect(page.getByRole('link', { name: "Open version 1's site" })).toHaveAttribute('href', /^http:\/\/sp-\w+\.localhost:\d+\/\?v=1$/);
      await page.getByRole('button', { name: 'Restore this version' }).click();
      await page.getByRole('dialog', { name: 'Restore version 1?' }).getByRole('button', { name: 'Restore' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Version 1 restored as version 3.' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Changes' })).toContainText('Changes in version 3');

      // An unknown address: a branded 404 with a way home.
      const missing = await page.goto('/no/such/page');
      expect(missing!.status()).toBe(404);
      await expect(page.getByRole('heading', { name: 'This page is not here' })).toBeVisible();
      await expectNoSideways(page);
      await page.screenshot({ path: `${SHOTS}/not-found-${size.name}.png`, fullPage: true });
      await page.getByRole('link', { name: 'Go to your dashboard' }).click();
      await expect(page).toHaveURL(/\/$/);
    });
  });
}

test('the shell reaches everything: workspace switcher, jump-to, API tokens made once, deleting a space behind a dialog', async ({ page, request }) => {
  const handle = `shell-${randomBytes(3).toString('hex')}`;
  await signIn(page, handle);
  expect((await page.request.get('/icon.svg')).status()).toBe(200);

  // The workspace switcher in the header.
  await page.getByRole('button', { name: 'Switch workspace' }).click();
  await page.getByRole('menuitem', { name: new RegExp(handle) }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${handle}$`));
  await expect(page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Members' })).toHaveAttribute('aria-current', 'page');

  // ⌘K jumps to a space by name.
  const { token } = await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json();
  const space = await (await request.post('/v1/spaces', { headers: { authorization: `Bearer ${token}` }, data: { workspace: handle, name: 'Jump target', visibility: 'members' } })).json();
  await page.keyboard.press('Control+k');
  const jump = page.getByRole('dialog', { name: 'Jump to' });
  await jump.getByRole('combobox').fill('jump tar');
  await expect(jump.getByRole('option', { name: /Jump target/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/spaces/${space.id}$`));

  // An API token made in the web app is shown once and works.
  await page.goto('/settings/tokens');
  await page.getByLabel('Token name').fill('CI deploys');
  await page.getByRole('button', { name: 'Create token' }).click();
  const secret = await page.getByRole('status', { name: 'New API token' }).getByLabel('API token').textContent();
  expect((await request.get('/v1/me', { headers: { authorization: `Bearer ${secret}` } })).status()).toBe(200);
  await expectAccessible(page);
  // Revoked, it is no longer shown as if it worked.
  await page.getByRole('button', { name: 'Revoke CI deploys' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('status', { name: 'New API token' })).toHaveCount(0);
  expect((await request.get('/v1/me', { headers: { authorization: `Bearer ${secret}` } })).status()).toBe(401);

  // Deleting the space asks first; Escape cancels, the danger button deletes.
  await page.goto(`/spaces/${space.id}/settings`);
  await page.getByRole('region', { name: 'Danger zone' }).getByRole('button', { name: 'Delete this space' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Jump target?' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await page.getByRole('region', { name: 'Danger zone' }).getByRole('button', { name: 'Delete this space' }).click();
  await dialog.getByRole('button', { name: 'Delete this space' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${handle}/spaces$`));
  await expect(page.getByRole('status').filter({ hasText: 'Deleted the space Jump target.' })).toBeVisible();
  expect((await page.goto(`/spaces/${space.id}`))!.status()).toBe(404);
});
