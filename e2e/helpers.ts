// What several journeys do the same way: sign in with the development form,
// publish files through the API's plan / upload / commit cycle, and check a
// page fits the screen and has no serious accessibility violation.
import { createHash } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';

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

/** No page may be wider than the screen (the phone layout broke on long code and tables). */
export async function expectNoSideways(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, `${page.url()} is ${scroll}px wide on a ${client}px screen`).toBeLessThanOrEqual(client);
}

/** No serious or critical axe violation. The page's title is waited for: Next streams a dynamic page's metadata after its body starts. */
export async function expectAccessible(page: Page) {
  await expect(page).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`)).toEqual([]);
}

/** At 1280 and 390 px, light and dark: a screenshot under .atrium/test-results/e2e, axe, and no sideways scrolling; then back to 1280 light. */
export async function expectEveryLook(page: Page, name: string) {
  for (const [width, scheme] of [[1280, 'light'], [1280, 'dark'], [390, 'light'], [390, 'dark']] as const) {
    await page.setViewportSize({ width, height: 844 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `.atrium/test-results/e2e/${name}-${width}-${scheme}.png`, fullPage: true });
    await expectAccessible(page);
    await expectNoSideways(page);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 844 });
}

/** A person of their own (a browser context of their own), signed in with the development form. */
export async function signedInPage(browser: Browser, handle: string, next = '/'): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`/signin?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Handle').fill(handle);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: `Your account: @${handle}` })).toBeVisible();
  return page;
}
