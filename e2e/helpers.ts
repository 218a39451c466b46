// What several journeys do the same way: sign in with the development form,
// and publish files through the API's plan / upload / commit cycle.
import { createHash } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

export async function signIn(page: Page, handle: string) {
  await page.goto('/signin');
  await page.getByLabel('Handle').fill(handle);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
}

export async function push(request: APIRequestContext, token: string, spaceId: string, files: Record<string, string>, message: string) {
  const headers = { authorization: `Bearer ${token}` };
  const entries = Object.entries(files).map(([path, content]) => ({ path, sha256: createHash('sha256').update(content).digest('hex'), size: Buffer.byteLength(content) }));
  const plan = await (await request.post(`/v1/spaces/${spaceId}/push/plan`, { headers, data: { files: entries } })).json();
  for (const e of entries.filter((e) => plan.missing.includes(e.sha256))) {
    await request.put(`/v1/spaces/${spaceId}/blobs/${e.sha256}`, { headers, data: Buffer.from(files[e.path]) });
  }
  expect((await request.post(`/v1/spaces/${spaceId}/versions`, { headers, data: { files: entries, message } })).status()).toBe(200);
}
