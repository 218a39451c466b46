// The inbox as two people use it: one invites the other into a workspace,
// mentions them, replies to their thread and resolves it; the other sees the
// bell's count, opens the inbox, follows an entry to the comment (which marks
// it read), marks the rest read, and chooses which kinds are mailed. Checked at
// both widths, light and dark, with axe; screenshots under .atrium/test-results/e2e.
import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectAccessible, expectNoSideways, push, signIn } from './helpers.ts';

async function token(request: APIRequestContext, handle: string): Promise<string> {
  const answer = await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } });
  expect(answer.status()).toBe(200);
  return (await answer.json()).token;
}

test('a person follows the bell to mentions, replies, resolutions and invitations, and marks them read', async ({ page, request, browser }) => {
  // Two people, five pages, four sizes and themes with axe.
  test.setTimeout(120_000);
  const tag = randomBytes(3).toString('hex');
  const owner = `ntf-owner-${tag}`;
  const reader = `ntf-reader-${tag}`;
  const ownerToken = await token(request, owner);
  const readerToken = await token(request, reader);
  const as = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });
  const post = async (t: string, path: string, data: unknown) => {
    const answer = await request.post(path, { ...as(t), data });
    expect(answer.status(), `${path}: ${await answer.text()}`).toBeLessThan(300);
    return answer.status() === 204 ? null : answer.json();
  };

  const space = await post(ownerToken, '/v1/spaces', { workspace: owner, name: 'Field notes' });
  await push(request, ownerToken, space.id, { 'README.md': '# Field notes\n\nBring water and a map.\n' }, 'First');
  await post(ownerToken, `/v1/workspaces/${owner}/members`, { handle: reader, role: 'member' });

  // The invitation is in the reader's inbox; it leads to the dashboard, where it is answered.
  await signIn(page, reader);
  const bell = page.getByRole('link', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await bell.click();
  await expect(page).toHaveURL(/\/notifications$/);
  await page.getByRole('link', { name: new RegExp(`invited you to ${owner} as member`) }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('button', { name: `Accept the invitation to ${owner}` }).click();
  await expect(page).toHaveURL(new RegExp(`/w/${owner}$`));
  await expect(bell).toHaveAccessibleName('Notifications');

  // The reader opens a thread; the owner mentions them, replies to it and resolves it.
  const thread = await post(readerToken, `/v1/spaces/${space.id}/comments`, { path: 'README.md', body: 'Which map?', quote: 'a map' });
  const mention = await post(ownerToken, `/v1/spaces/${space.id}/comments`, { path: 'README.md', body: `@${reader} can you check the water list?` });
  await post(ownerToken, `/v1/spaces/${space.id}/comments`, { path: 'README.md', body: 'The hiking one.', parentId: thread.id });
  await post(ownerToken, `/v1/comments/${thread.id}/resolve`, {});

  await page.goto('/notifications');
  await expect(bell).toHaveAccessibleName('Notifications, 3 unread');
  await expect(page.getByText('3 unread')).toBeVisible();
  const entries = page.getByRole('list', { name: 'Notifications' }).getByRole('listitem');
  await expect(entries).toHaveCount(4);
  await expect(entries.nth(0)).toContainText(`@${owner} resolved your thread on README.md in Field notes`);
  await expect(entries.nth(1)).toContainText(`@${owner} replied to your thread on README.md in Field notes`);
  await expect(entries.nth(1)).toContainText('The hiking one.');
  await expect(entries.nth(2)).toContainText(`@${owner} mentioned you on README.md in Field notes`);

  for (const [width, scheme] of [[1280, 'light'], [1280, 'dark'], [390, 'light'], [390, 'dark']] as const) {
    await page.setViewportSize({ width, height: 844 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `.atrium/test-results/e2e/notifications-${width}-${scheme}.png`, fullPage: true });
    await expectNoSideways(page);
    await expectAccessible(page);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 844 });

  // Following the mention leads to the comment and marks it read.
  await page.getByRole('link', { name: /mentioned you on README\.md/ }).click();
  await expect(page).toHaveURL(new RegExp(`/spaces/${space.id}/comments\\?path=README\\.md#${mention.id}$`));
  await expect(page.getByText('can you check the water list?')).toBeVisible();
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread');

  // One marked read where it stands, then all of them.
  await page.goto('/notifications');
  await page.getByRole('button', { name: /^Mark read: .* replied to your thread/ }).click();
  await expect(page.getByText('1 unread')).toBeVisible();
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.getByText('All caught up')).toBeVisible();
  await expect(bell).toHaveAccessibleName('Notifications');
  await expect(page.getByRole('button', { name: /^Mark read/ })).toHaveCount(0);

  // The owner caused all of it and has nothing in their inbox.
  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  await signIn(ownerPage, owner);
  await expect(ownerPage.getByRole('link', { name: /^Notifications/ })).toHaveAccessibleName('Notifications');
  await ownerPage.goto('/notifications');
  await expect(ownerPage.getByText('Nothing here yet')).toBeVisible();
  await ownerContext.close();

  // Mail: mentions only at first; the reader adds replies.
  await page.goto('/settings/preferences');
  const mentions = page.getByRole('checkbox', { name: 'Someone @mentions you in a comment or a room' });
  const replies = page.getByRole('checkbox', { name: 'Someone replies to your comment thread' });
  await expect(mentions).toBeChecked();
  await expect(replies).not.toBeChecked();
  await replies.check();
  await expect(replies).toBeEnabled();
  for (const [width, scheme] of [[1280, 'dark'], [390, 'light']] as const) {
    await page.setViewportSize({ width, height: 844 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `.atrium/test-results/e2e/notification-mail-${width}-${scheme}.png`, fullPage: true });
    await expectAccessible(page);
  }
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Someone replies to your comment thread' })).toBeChecked();
  const settings = await (await request.get('/v1/me/notification-settings', as(readerToken))).json();
  expect(settings.mailOn).toEqual(['mention', 'reply']);
});
