// The Database tab: a query in the console, and a restore undone.
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';

test('a person runs SQL in the console, restores the database to before a change, and undoes the restore', async ({ page, request }) => {
  const handle = `db-${randomBytes(3).toString('hex')}`;
  const { token } = await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json();
  const headers = { authorization: `Bearer ${token}` };
  const space = await (await request.post('/v1/spaces', { headers, data: { workspace: handle, name: 'Data' } })).json();
  const query = (sql: string) => request.post(`/v1/spaces/${space.id}/db/query`, { headers, data: { sql, write: true } });
  expect((await query("CREATE TABLE pets (name TEXT); INSERT INTO pets VALUES ('Rex');")).status()).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const beforeChange = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect((await query("INSERT INTO pets VALUES ('Tom')")).status()).toBe(200);

  await page.goto('/signin');
  await page.getByLabel('Handle').fill(handle);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto(`/spaces/${space.id}`);
  await page.getByRole('link', { name: 'Database' }).click();
  await expect(page).toHaveURL(new RegExp(`/spaces/${space.id}/database$`));

  await page.getByLabel('SQL', { exact: true }).fill('SELECT name FROM pets ORDER BY name');
  await page.getByRole('button', { name: 'Run' }).click();
  const result = page.getByRole('table', { name: 'Query result' });
  await expect(result.getByRole('cell', { name: 'Tom' })).toBeVisible();

  // A readable error.
  await page.getByLabel('SQL', { exact: true }).fill('SELECT * FROM nowhere');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'no such table: nowhere' })).toBeVisible();
  // A write without "Allow writes" says what to tick, not what to send.
  await page.getByLabel('SQL', { exact: true }).fill("INSERT INTO pets (name) VALUES ('Kit')");
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'it was not run' })).toContainText('tick “Allow writes”');
  await expect(page.getByText('write: true')).toHaveCount(0);

  // Guest writes are a form, one statement each, not JSON to type.
  const guests = page.getByRole('region', { name: 'Guest writes' });
  await guests.getByRole('button', { name: 'Add a guest write' }).click();
  const first = guests.getByRole('listitem', { name: 'Guest write 1' });
  await first.getByLabel('Name').fill('add pet');
  await first.getByLabel('Statement').fill('INSERT INTO pets (name) VALUES (?)');
  await guests.getByRole('button', { name: 'Save guest writes' }).click();
  await expect(guests.getByRole('alert')).toHaveText(/^Name must be 1 to 64 letters/);
  await first.getByLabel('Name').fill('add_pet');
  await guests.getByRole('button', { name: 'Save guest writes' }).click();
  await expect(guests.getByText('Saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Guest writes' }).getByLabel('Name')).toHaveValue('add_pet');

  // Restore to the second before Tom came.
  const local = new Date(beforeChange - new Date(beforeChange).getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
  await page.getByLabel('Restore to').fill(local);
  await page.getByRole('button', { name: 'Restore', exact: true }).click();
  // Asked first, in the app's own dialog.
  await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText(/Restored to/)).toBeVisible();
  // The way back survives a reload.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Undo' })).toBeVisible();
  await page.getByLabel('SQL', { exact: true }).fill('SELECT group_concat(name) AS names FROM pets');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByRole('table', { name: 'Query result' }).getByRole('cell', { name: 'Rex', exact: true })).toBeVisible();

  // Undo brings Tom back.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText(/Restored to/)).toBeVisible();
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByRole('table', { name: 'Query result' }).getByRole('cell', { name: 'Rex,Tom' })).toBeVisible();
});
