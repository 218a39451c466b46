// ⌘K finds everything a person has: spaces, files of their latest versions,
// rooms, live spaces, apps, settings pages and actions, with one search request
// per pause in typing, and nothing of a workspace they are not in. Checked at
// both widths, light and dark, with axe; screenshots under .atrium/test-results/e2e.
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, push, signIn } from './helpers.ts';

/** POST as the signed-in page (its session cookie), answering the JSON. */
async function post(page: Page, path: string, body: unknown) {
  return page.evaluate(
    async ([path, body]) => {
      const response = await fetch(path as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return response.json();
    },
    [path, body],
  );
}

/** Opens the menu with Ctrl+K, once the page listens for it. */
async function openMenu(page: Page) {
  const menu = page.getByRole('dialog', { name: 'Jump to' });
  await expect(async () => {
    if (!(await menu.isVisible())) await page.keyboard.press('Control+k');
    await expect(menu).toBeVisible({ timeout: 1000 });
  }).toPass();
  return menu;
}

test('⌘K finds spaces, files, rooms, live spaces, apps, settings and actions, and nothing of others', async ({ page, request, browser }) => {
  const tag = randomBytes(3).toString('hex');
  const handle = `finder-${tag}`;

  // Someone else's workspace, with a space and a file whose names the finder will type.
  const other = `keeper-${tag}`;
  const { token: otherToken } = await (await request.post('/v1/auth/dev-login', { data: { handle: other, label: 'cli' } })).json();
  const secret = await (await request.post('/v1/spaces', { headers: { authorization: `Bearer ${otherToken}` }, data: { workspace: other, name: 'Field secrets', visibility: 'public' } })).json();
  await push(request, otherToken, secret.id, { 'field-notes.md': '# Not yours\n' }, 'Secret');

  await signIn(page, handle);
  const { token } = await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json();
  const space = await (await request.post('/v1/spaces', { headers: { authorization: `Bearer ${token}` }, data: { workspace: handle, name: 'Field guide', visibility: 'members' } })).json();
  await push(request, token, space.id, { 'index.html': '<h1>Guide</h1>', 'docs/field-notes.md': '# Field notes\n\nBring water.\n' }, 'First');
  const room = await post(page, '/v1/rooms', { workspace: handle, name: 'Planning room', template: 'app' });
  await post(page, '/v1/live-spaces', { workspace: handle, name: 'Launch board' });
  const { app } = await post(page, `/v1/rooms/${room.id}/build`, {});

  // One search request per pause, however many keys were typed.
  const searches: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/v1/search') searches.push(new URL(r.url()).searchParams.get('q')!);
  });
  const menu = await openMenu(page);
  const box = menu.getByRole('combobox');
  // Before typing: the actions and pages.
  await expect(menu.getByRole('option', { name: /New API token/ })).toBeVisible();
  await box.pressSequentially('field', { delay: 20 });
  await expect(menu.getByRole('option', { name: /^Field guide/ })).toBeVisible();
  await expect(menu.getByRole('option', { name: /docs\/field-notes\.md/ })).toBeVisible();
  expect(searches).toEqual(['field']);
  // Nothing of the other workspace, public as its space is.
  await expect(menu.getByRole('option', { name: /Field secrets/ })).toHaveCount(0);
  await expect(menu.getByRole('option', { name: /^field-notes\.md/ })).toHaveCount(0);

  for (const [width, scheme] of [[1280, 'light'], [1280, 'dark'], [390, 'light'], [390, 'dark']] as const) {
    await page.setViewportSize({ width, height: 844 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `.atrium/test-results/e2e/command-menu-${width}-${scheme}.png` });
    await expectAccessible(page);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 844 });

  // A file opens at its page in the space.
  await box.fill('field notes');
  await expect(menu.getByRole('option').first()).toContainText('docs/field-notes.md');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/spaces/${space.id}\\?path=docs%2Ffield-notes\\.md$`));
  await expect(page.getByText('Bring water.')).toBeVisible();

  // Rooms, live spaces and apps, each to its page.
  const open = async (typed: string, option: RegExp, url: RegExp) => {
    await openMenu(page);
    await box.fill(typed);
    await menu.getByRole('option', { name: option }).click();
    await expect(page).toHaveURL(url);
  };
  await open('planning', /^Planning room\s*Room/, new RegExp(`/rooms/${room.id}$`));
  await open('launch', /^Launch board\s*Live space/, /\/live-spaces\/\w+$/);
  await open(app.name, new RegExp(`^${app.name}\\s*App`), new RegExp(`/apps/${app.id}$`));

  // Settings pages and actions, known without asking the server.
  await open('blocked', /^Blocked users/, /\/settings\/blocked$/);
  await open('billing', /^Billing/, new RegExp(`/w/${handle}/billing$`));
  await open('new token', /^New API token/, /\/settings\/tokens#new-token$/);
  await expect(page.getByRole('heading', { name: 'New API token' })).toBeVisible();
  await open('create space', /^Create a space in/, new RegExp(`/w/${handle}/spaces#new-space$`));
  await expect(page.getByRole('heading', { name: 'New space' })).toBeVisible();
  await open('invite', /^Invite someone to/, new RegExp(`/w/${handle}#invite$`));

  // The other person finds their own space, and nothing of the finder's.
  const otherPage = await (await browser.newContext()).newPage();
  await signIn(otherPage, other);
  const theirs = await openMenu(otherPage);
  await theirs.getByRole('combobox').fill('field');
  await expect(theirs.getByRole('option', { name: /^Field secrets/ })).toBeVisible();
  await expect(theirs.getByRole('option', { name: /^field-notes\.md/ })).toBeVisible();
  await expect(theirs.getByRole('option', { name: /Field guide|docs\/field-notes/ })).toHaveCount(0);
  await theirs.getByRole('combobox').fill('planning');
  await expect(theirs.getByRole('status')).toHaveText('Nothing matches.');
});
