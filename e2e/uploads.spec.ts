// One-off uploads from the browser: several files chosen (or dropped) at once
// all arrive, one after the other, with progress.
import { expect, test } from '@playwright/test';
import { signIn } from './helpers.ts';

test('several files chosen at once are all uploaded, and a drop takes them all too', async ({ page, request }) => {
  const handle = `uploader-${Date.now().toString(36)}`;
  const { token } = await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json();
  const space = await (await request.post('/v1/spaces', { headers: { authorization: `Bearer ${token}` }, data: { workspace: handle, name: 'Drops' } })).json();
  await signIn(page, handle);
  await page.goto(`/spaces/${space.id}/uploads`);
  await page.getByLabel('Files to upload').setInputFiles([
    { name: 'one.txt', mimeType: 'text/plain', buffer: Buffer.from('one') },
    { name: 'two.txt', mimeType: 'text/plain', buffer: Buffer.from('two') },
    { name: 'three.txt', mimeType: 'text/plain', buffer: Buffer.from('three') },
  ]);
  await expect(page.getByText('Uploaded 3 files.')).toBeVisible();
  for (const name of ['one.txt', 'two.txt', 'three.txt']) await expect(page.getByRole('main').getByText(name, { exact: true }).first()).toBeVisible();

  await page.getByText('Choose files or drop them here').evaluate((target) => {
    const data = new DataTransfer();
    for (const name of ['four.txt', 'five.txt']) data.items.add(new File([name], name, { type: 'text/plain' }));
    target.closest('div')!.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await expect(page.getByText('Uploaded 2 files.')).toBeVisible();
  const { uploads } = await (await request.get(`/v1/spaces/${space.id}/uploads`, { headers: { authorization: `Bearer ${token}` } })).json();
  expect(uploads.map((u: { name: string }) => u.name).sort()).toEqual(['five.txt', 'four.txt', 'one.txt', 'three.txt', 'two.txt']);
});
