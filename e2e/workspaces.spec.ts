import { expect, test, type Browser, type Page } from '@playwright/test';

async function signIn(page: Page, handle: string) {
  await page.getByLabel('Handle').fill(handle);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function newPerson(browser: Browser, handle: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto('/signin');
  await signIn(page, handle);
  await expect(page.getByRole('region', { name: 'Your account' })).toContainText(`Signed in as @${handle}`);
  return page;
}

test('an owner invites a second person by link; they sign in from the link and join', async ({ page, browser }) => {
  // The owner creates a workspace and an invite link for one use.
  await page.goto('/w/new');
  await expect(page).toHaveURL(/\/signin\?next=%2Fw%2Fnew$/);
  await signIn(page, 'link-owner');
  await expect(page).toHaveURL(/\/w\/new$/);
  await page.getByLabel('Name', { exact: true }).fill('Link Team');
  await page.getByLabel('Slug').fill('link-team');
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page).toHaveURL(/\/w\/link-team$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Link Team');

  await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Invite links' }).click();
  // Tabs navigate in place: wait for the new page before using its form.
  await expect(page).toHaveURL(/\/w\/link-team\/invites$/);
  await page.getByLabel('Role', { exact: true }).selectOption('admin');
  await page.getByLabel('Maximum uses (optional)').fill('1');
  await page.getByRole('button', { name: 'Create invite link' }).click();
  const shown = page.getByRole('status', { name: 'New invite link' });
  await expect(shown).toContainText('shown only once');
  const url = await shown.getByLabel('Invite link').inputValue();
  expect(url).toMatch(/\/invite\/atrw_[\w-]{43}$/);
  await expect(page.getByRole('table', { name: 'Live invite links' })).toContainText('0 of 1');
  await page.reload();
  await expect(page.getByText(url)).toHaveCount(0);

  // A second person opens the link signed out, signs in from it and joins.
  const guest = await (await browser.newContext()).newPage();
  await guest.goto(url);
  await expect(guest.getByRole('heading', { level: 1 })).toHaveText('Join Link Team');
  await expect(guest.getByRole('region', { name: 'Invitation' })).toContainText('@link-owner invited you to the workspace Link Team /link-team as admin');
  await guest.getByRole('link', { name: 'Sign in to join' }).click();
  await signIn(guest, 'link-guest');
  await expect(guest).toHaveURL(new RegExp(`/invite/${url.split('/invite/')[1]}$`));
  await guest.getByRole('button', { name: 'Join Link Team' }).click();
  await expect(guest).toHaveURL(/\/w\/link-team$/);
  const members = guest.getByRole('table', { name: 'Members' });
  await expect(members).toContainText('@link-owner');
  await expect(members).toContainText('@link-guest');
  await expect(guest.getByText('you are admin')).toBeVisible();

  // The link was for one use: it is gone from the list, and a third person is told it is used up.
  await page.reload();
  await expect(page.getByText('No live invite links.')).toBeVisible();
  const late = await newPerson(browser, 'link-late');
  await late.goto(url);
  await expect(late.getByRole('heading', { level: 1 })).toHaveText('This invitation does not work');
  await expect(late.getByRole('main').getByRole('alert')).toContainText('used up');

  // The owner's audit log tells the story, newest first.
  await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Audit log' }).click();
  const events = page.getByRole('list', { name: 'Audit events' }).getByRole('listitem');
  await expect(events.first()).toContainText('@link-guest joined as an admin through an invite link.');
  await expect(events.nth(1)).toContainText('@link-owner made an invite link for an admin for 1 use.');
  await expect(events.last()).toContainText('@link-owner created the workspace Link Team (/link-team).');
});

test('an invitation by handle waits on the dashboard until it is accepted', async ({ page, browser }) => {
  const invitee = await newPerson(browser, 'handle-guest');
  await page.goto('/signin?next=/w/new');
  await signIn(page, 'handle-owner');
  await page.getByLabel('Name', { exact: true }).fill('Handle Team');
  await page.getByLabel('Slug').fill('handle-team');
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page).toHaveURL(/\/w\/handle-team$/);
  const inviteForm = page.getByRole('region', { name: 'Invite by handle' });
  await inviteForm.getByLabel('Handle').fill('handle-guest');
  await inviteForm.getByLabel('Role').selectOption('viewer');
  await inviteForm.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByRole('table', { name: 'Pending invitations' })).toContainText('@handle-guest');

  await invitee.reload();
  const pending = invitee.getByRole('region', { name: 'Pending invitations' });
  await expect(pending).toContainText('Handle Team /handle-team invites you as viewer');
  await invitee.getByRole('button', { name: 'Accept the invitation to Handle Team' }).click();
  await expect(invitee).toHaveURL(/\/w\/handle-team$/);
  await expect(invitee.getByText('you are viewer')).toBeVisible();
  // A viewer sees the members, spaces, apps and the plan (read-only) but none of the administration.
  await expect(invitee.getByRole('navigation', { name: 'Workspace' }).getByRole('link')).toHaveText(['Members', 'Spaces', 'Apps', 'Billing']);
  await expect(invitee.getByRole('region', { name: 'Invite by handle' })).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole('table', { name: 'Members' })).toContainText('@handle-guest');
  await expect(page.getByText('No invitations waiting for an answer.')).toBeVisible();
});
