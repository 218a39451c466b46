import { expect, test } from '@playwright/test';

test('builds an app from a room, puts it live with a join code, and a visitor opens it with the code', async ({ page, browser }) => {
  const team = `app-team-${Date.now().toString(36)}`;
  await page.goto('/w/new');
  await page.getByLabel('Handle').fill(`app-maker-${Date.now().toString(36)}`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/w\/new$/);
  await page.getByLabel('Name', { exact: true }).fill('App Team');
  await page.getByLabel('Slug').fill(team);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${team}$`));

  // A room from the "app" template (its first page: headings and lists).
  const status = await page.evaluate(async (workspace) => {
    const response = await fetch('/v1/rooms', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ workspace, name: 'Idea room', template: 'app' }) });
    return response.status;
  }, team);
  expect(status).toBe(200);

  await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Apps' }).click();
  await expect(page.getByText('No apps yet.')).toBeVisible();
  const rooms = page.getByRole('list', { name: 'Rooms' });
  await expect(rooms).toContainText('Idea room');
  await rooms.getByRole('button', { name: 'Build app' }).click();
  await expect(page).toHaveURL(/\/apps\/app_\w+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('App idea');
  await expect(page.getByTestId('app-status')).toHaveText('preview');
  const preview = page.frameLocator('iframe[title="Preview"]');
  await expect(preview.getByRole('heading', { level: 1 })).toHaveText('App idea');
  // The preview is styled: its stylesheet loads on the app space's own host (body margin 0, not the browser's 8px).
  await expect(preview.locator('body')).toHaveCSS('margin', '0px');

  await page.getByLabel('Who may open it').selectOption('code');
  await page.getByRole('button', { name: 'Go live' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Go live' }).click();
  await expect(page.getByTestId('app-status')).toHaveText('live');
  const code = (await page.getByTestId('join-code').textContent())!.trim();
  expect(code).toMatch(/^[A-Z2-9]{8}$/);
  const liveUrl = (await page.getByTestId('live-url').textContent())!.trim();
  await expect(page.getByRole('list', { name: 'Deploys' })).toContainText('live');

  // Rebuilding makes a new preview version of the same app, which can then be promoted.
  const appPage = page.url();
  await page.getByRole('button', { name: 'Rebuild preview' }).click();
  await expect(page.getByRole('heading', { name: 'Preview (version 2)' })).toBeVisible();
  expect(page.url()).toBe(appPage);
  await expect(page.getByRole('button', { name: 'Promote preview v2' })).toBeVisible();

  // A visitor, signed out, is asked for the code, then sees the app.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(liveUrl);
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText('App idea');
  await expect(visitor.getByText('opened with a join code')).toBeVisible();
  await visitor.getByLabel('Join code').fill('WRONGCODE');
  await visitor.getByRole('button', { name: 'Open' }).click();
  await expect(visitor.getByRole('alert')).toHaveText('That code is not right.');
  await visitor.getByLabel('Join code').fill(code.toLowerCase());
  await visitor.getByRole('button', { name: 'Open' }).click();
  // The page's level-2 headings are the app's pages and navigation.
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText('App idea');
  await expect(visitor.getByRole('navigation')).toContainText('Screens');
  await visitor.getByRole('navigation').getByRole('link', { name: 'What it does' }).click();
  await expect(visitor).toHaveURL(/\/what-it-does\/$/);
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText('What it does');

  // The visitor is one of the app's end users.
  await page.reload();
  await expect(page.getByRole('table', { name: 'End users' })).toContainText('someone with the code');
});
