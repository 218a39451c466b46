// The room, live-space and app pages in the frame of the space pages, and a
// word after every change (issue 38, items 8 and 9). The docs' screenshots of
// the shared frame (docs/screens/) are taken here.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectEveryLook, push, signedInPage } from './helpers.ts';

const run = Date.now().toString(36);

/** Calls the API with a person's token, failing on an error status. */
function apiAs(request: APIRequestContext, token: string) {
  return async (method: string, path: string, data?: unknown) => {
    const answer = await request.fetch(path, { method, headers: { authorization: `Bearer ${token}` }, data });
    expect(answer.status(), `${method} ${path}: ${await answer.text()}`).toBeLessThan(300);
    return answer.status() === 204 ? null : answer.json();
  };
}

async function tokenOf(request: APIRequestContext, handle: string): Promise<string> {
  return (await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json()).token;
}

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' });

// Long journeys: each walks several pages, live sockets and builds.
test.describe.configure({ timeout: 600_000 });

test('room, live-space and app pages share the space pages’ frame: breadcrumb, switcher, width, menu, toolbar and placeholder', async ({ browser, request }) => {
  const owner = `frame-${run}`;
  const token = await tokenOf(request, owner);
  const api = apiAs(request, token);
  const slug = `frame-team-${run}`;
  await api('POST', '/v1/workspaces', { slug, name: 'Frame Team' });
  const room = await api('POST', '/v1/rooms', { workspace: slug, name: 'Launch plan' });
  const live = await api('POST', '/v1/live-spaces', { workspace: slug, name: 'Field guide' });
  const appRoom = await api('POST', '/v1/rooms', { workspace: slug, name: 'Idea room', template: 'app' });
  const { app } = await api('POST', `/v1/rooms/${appRoom.id}/build`, {});

  const page = await signedInPage(browser, owner);
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  // The page's column starts where the header does, as on the space pages.
  const sameLeftEdge = async () => {
    const header = (await page.getByRole('link', { name: 'Atrium', exact: true }).boundingBox())!;
    const column = (await crumbs.boundingBox())!;
    expect(Math.abs(column.x - header.x)).toBeLessThanOrEqual(1);
  };

  for (const [kind, id, name, plural, noun] of [
    ['rooms', room.id, 'Launch plan', 'Rooms', 'room'],
    ['live-spaces', live.id, 'Field guide', 'Live spaces', 'live space'],
  ] as const) {
    await page.goto(`/${kind}/${id}`);
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Live');
    await expect(crumbs.getByRole('listitem')).toHaveText(['Frame Team/', `${plural}/`, name]);
    await expect(crumbs.getByRole('link', { name: plural })).toHaveAttribute('href', `/${kind}?workspace=${slug}`);
    await expect(page.getByRole('button', { name: 'Switch workspace: Frame Team' })).toBeVisible();
    await sameLeftEdge();

    // Deleting lives in the page's menu, behind the app's own dialog.
    await expect(page.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
    await page.getByRole('button', { name: new RegExp(`^${noun} actions`, 'i') }).click();
    await page.getByRole('menuitem', { name: `Delete ${noun}…` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete this ${noun} for everyone?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    // The toolbar's buttons are drawn icons with words, no bare glyphs.
    const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
    await expect(toolbar).not.toContainText('</>');
    await expect(toolbar).not.toContainText('❝');
    for (const [label, text] of [['Code block', 'Code'], ['Quote', 'Quote']]) {
      const button = toolbar.getByRole('button', { name: label, exact: true });
      await expect(button).toHaveText(text);
      await expect(button).toHaveAttribute('title', label);
      await expect(button.locator('svg')).toHaveCount(1);
    }

    // An empty page says what to do.
    const editor = page.getByRole('textbox', { name: 'Page Page 1' });
    await expect(editor.locator('p.is-editor-empty')).toHaveAttribute('data-placeholder', /type \/ for headings/);

    await expectEveryLook(page, `frame-${kind}`);
  }

  await page.goto(`/apps/${app.id}`);
  await expect(crumbs.getByRole('listitem')).toHaveText(['Frame Team/', 'Apps/', app.name]);
  await expect(page.getByRole('button', { name: 'Switch workspace: Frame Team' })).toBeVisible();
  await sameLeftEdge();
  await expectEveryLook(page, 'frame-app');

  // The docs show the shared frame: the first screen of each, small.
  for (const [path, file, width, scheme] of [
    [`/rooms/${room.id}`, 'room-1280-light', 1280, 'light'],
    [`/rooms/${room.id}`, 'room-390-dark', 390, 'dark'],
    [`/apps/${app.id}`, 'app-1280-dark', 1280, 'dark'],
    [`/live-spaces/${live.id}`, 'live-space-390-light', 390, 'light'],
  ] as const) {
    await page.setViewportSize({ width, height: 760 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(path);
    if (!path.startsWith('/apps')) await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Live');
    await page.screenshot({ path: `docs/screens/${file}.png`, scale: 'css' });
  }
});

test('every change says what it did, Go live asks first, and accepting an invitation reads it in the inbox', async ({ browser, request }) => {
  const owner = `said-${run}`;
  const invitee = `said-new-${run}`;
  const editor = `said-ed-${run}`;
  const api = apiAs(request, await tokenOf(request, owner));
  await tokenOf(request, invitee);
  await tokenOf(request, editor);
  const slug = `said-team-${run}`;
  await api('POST', '/v1/workspaces', { slug, name: 'Said Team' });
  const page = await signedInPage(browser, owner, `/w/${slug}`);

  // An invitation by handle.
  await page.getByLabel('Handle', { exact: true }).fill(invitee);
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(toasts(page)).toContainText(`Invited @${invitee} as a member`);

  // The invitee accepts it from the dashboard: the inbox no longer counts it.
  const other = await signedInPage(browser, invitee);
  const bell = other.getByRole('link', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await other.getByRole('button', { name: 'Accept the invitation to Said Team' }).click();
  await expect(other).toHaveURL(new RegExp(`/w/${slug}$`));
  await expect(toasts(other)).toContainText('You joined Said Team.');
  await expect(bell).toHaveAccessibleName('Notifications');

  // A room's people: added by handle, then a role change (a demotion, at once).
  const room = await api('POST', '/v1/rooms', { workspace: slug, name: 'Idea room', template: 'app' });
  await page.goto(`/rooms/${room.id}`);
  await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Live');
  await page.getByRole('tab', { name: 'people' }).click();
  const people = page.getByRole('region', { name: 'People' });
  await people.getByLabel('Handle or e-mail').fill(editor);
  await people.getByRole('button', { name: 'Add' }).click();
  await expect(toasts(page)).toContainText(`Added @${editor} as editor.`);
  await people.getByLabel(`Role of @${editor}`).selectOption('viewer');
  await expect(toasts(page)).toContainText(`@${editor} is now a viewer`);

  // An app: Go live asks first; Pause, Resume and Rebuild preview each end in a toast.
  const { app } = await api('POST', `/v1/rooms/${room.id}/build`, {});
  await page.goto(`/apps/${app.id}`);
  await page.getByRole('button', { name: 'Go live' }).click();
  const goLive = page.getByRole('dialog', { name: `Put ${app.name} live?` });
  await expect(goLive).toBeVisible();
  await goLive.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('app-status')).toHaveText('preview');
  await page.getByRole('button', { name: 'Go live' }).click();
  await goLive.getByRole('button', { name: 'Go live' }).click();
  await expect(toasts(page)).toContainText(`${app.name} is live.`);
  await expect(page.getByTestId('app-status')).toHaveText('live');
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Pause' }).click();
  await expect(toasts(page)).toContainText('Paused: visitors see a paused page.');
  await page.getByRole('button', { name: 'Resume', exact: true }).click();
  await expect(toasts(page)).toContainText('Resumed: visitors get the app again.');
  await page.getByRole('button', { name: 'Rebuild preview' }).click();
  // A build takes a while; its toast follows the page's reload.
  await expect(toasts(page)).toContainText('Preview version 2 is built.', { timeout: 60_000 });

  // A webhook paused.
  await api('POST', `/v1/workspaces/${slug}/webhooks`, { url: 'http://127.0.0.1:9/atrium', events: ['version.committed'] });
  await page.goto(`/w/${slug}/webhooks`);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(toasts(page)).toContainText('Paused.');

  // A mail preference.
  await page.goto('/settings/preferences');
  await page.getByRole('checkbox', { name: 'Someone replies to your comment thread' }).check();
  await expect(toasts(page)).toContainText('Saved: e-mailed when someone replies to your comment thread.');

  // A comment thread resolved, with an undo.
  const space = await api('POST', '/v1/spaces', { workspace: slug, name: 'Notes' });
  await push(request, await tokenOf(request, owner), space.id, { 'README.md': '# Notes\n\nBring a map.\n' }, 'First');
  await api('POST', `/v1/spaces/${space.id}/comments`, { path: 'README.md', body: 'Which map?' });
  await page.goto(`/spaces/${space.id}/comments?path=README.md`);
  await page.getByRole('button', { name: 'Resolve' }).click();
  await expect(toasts(page)).toContainText('Thread resolved.');
  await toasts(page).getByRole('button', { name: 'Undo' }).click();
  await expect(toasts(page)).toContainText('Thread reopened.');
  await expect(page.getByRole('button', { name: 'Resolve' })).toBeVisible();
});
