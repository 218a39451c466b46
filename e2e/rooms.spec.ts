import { expect, test, type Page } from '@playwright/test';
import { signedInPage } from './helpers.ts';

test('two people edit one room and see each other’s text, carets, presence and chat without reloading', async ({ browser }) => {
  // Bob exists first so Ada can add him by handle.
  const bob = await signedInPage(browser, 'room-bob');
  const ada = await signedInPage(browser, 'room-ada', '/w/new');
  await ada.getByLabel('Name', { exact: true }).fill('Room Team');
  await ada.getByLabel('Slug').fill('room-team');
  await ada.getByRole('button', { name: 'Create workspace' }).click();
  await expect(ada).toHaveURL(/\/w\/room-team$/);

  // From the workspace to its rooms; Ada creates one.
  await ada.getByRole('link', { name: 'Rooms', exact: true }).click();
  await expect(ada.getByRole('heading', { level: 1 })).toHaveText('Rooms');
  await ada.getByLabel('Name').fill('Launch plan');
  await ada.getByRole('button', { name: 'Create room' }).click();
  await expect(ada).toHaveURL(/\/rooms\/[\w-]+$/);
  const roomUrl = ada.url();
  await expect(ada.getByRole('heading', { level: 1 })).toHaveText('Launch plan');
  await expect(ada.getByRole('status', { name: 'Connection' })).toHaveText('Live');

  // People: Ada adds Bob as an editor.
  await ada.getByRole('tab', { name: 'people' }).click();
  const people = ada.getByRole('region', { name: 'People' });
  await people.getByLabel('Handle or e-mail').fill('room-bob');
  await people.getByRole('button', { name: 'Add' }).click();
  await expect(people.getByRole('list', { name: 'Members' })).toContainText('@room-bob');
  await ada.getByRole('tab', { name: 'chat' }).click();

  // Bob opens the room; both are live and see each other.
  await bob.goto(roomUrl);
  await expect(bob.getByRole('heading', { level: 1 })).toHaveText('Launch plan');
  await expect(bob.getByRole('status', { name: 'Connection' })).toHaveText('Live');
  await expect(ada.getByRole('list', { name: 'Here now' })).toContainText('@room-bob');
  await expect(bob.getByRole('list', { name: 'Here now' })).toContainText('@room-ada');

  // Ada types; Bob sees the words arrive and Ada's named caret.
  const adaEditor = ada.getByRole('textbox', { name: 'Page Page 1' });
  const bobEditor = bob.getByRole('textbox', { name: 'Page Page 1' });
  await adaEditor.click();
  await ada.keyboard.type('Hello from Ada.');
  await expect(bobEditor).toContainText('Hello from Ada.');
  const adaCaret = bob.locator('.collaboration-carets__label', { hasText: '@room-ada' });
  await expect(adaCaret).toBeVisible();

  // Bob types on a new line; Ada sees it and Bob's caret, in another colour.
  await bobEditor.click();
  await bob.keyboard.press('Control+End');
  await bob.keyboard.press('Enter');
  await bob.keyboard.type('And hello from Bob.');
  await expect(adaEditor).toContainText('Hello from Ada.');
  await expect(adaEditor).toContainText('And hello from Bob.');
  const bobCaret = ada.locator('.collaboration-carets__label', { hasText: '@room-bob' });
  await expect(bobCaret).toBeVisible();
  const colour = (l: typeof adaCaret) => l.evaluate((el) => getComputedStyle(el).backgroundColor);
  // Two people never share a colour, even when their own colours are the same.
  await expect.poll(async () => (await colour(bobCaret)) !== (await colour(adaCaret))).toBe(true);

  // Chat both ways.
  const adaChat = ada.getByRole('region', { name: 'Chat' });
  const bobChat = bob.getByRole('region', { name: 'Chat' });
  await adaChat.getByRole('textbox', { name: 'Message' }).fill('Shall we start?');
  await adaChat.getByRole('button', { name: 'Send' }).click();
  await expect(bobChat.getByRole('listitem', { name: 'Message from @room-ada' })).toContainText('Shall we start?');
  // Times read as on comments and in the inbox: relative while recent.
  await expect(bobChat.getByRole('listitem', { name: 'Message from @room-ada' }).locator('time')).toHaveText('just now');
  await bobChat.getByRole('textbox', { name: 'Message' }).fill('Ready when you are.');
  await bobChat.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(adaChat.getByRole('listitem', { name: 'Message from @room-bob' })).toContainText('Ready when you are.');

  // Ada deletes her message; it disappears from Bob's chat too.
  await adaChat.getByRole('listitem', { name: 'Message from @room-ada' }).getByRole('button', { name: 'Delete' }).click();
  await ada.getByRole('dialog').getByRole('button', { name: 'Delete message' }).click();
  await expect(bobChat.getByRole('listitem', { name: 'Message from @room-ada' })).toHaveCount(0);
  await expect(bobChat.getByRole('listitem', { name: 'Message from @room-bob' })).toHaveCount(1);

  // A page Bob adds appears in Ada's sidebar.
  await bob.getByRole('button', { name: '+ Add page' }).click();
  await expect(ada.getByRole('navigation', { name: 'Pages' })).toContainText('Page 2');

  // The document outlives the page: after a reload Bob still reads both lines.
  await bob.goto(roomUrl);
  await expect(bob.getByRole('textbox', { name: 'Page Page 1' })).toContainText('And hello from Bob.');
  await expect(bob.getByText('you are editor')).toBeVisible();

  // Ada removes Bob: his open page keeps no role and no control he can no longer use.
  await ada.getByRole('tab', { name: 'people' }).click();
  await people.getByRole('listitem').filter({ hasText: '@room-bob' }).getByRole('button', { name: 'Remove' }).click();
  await ada.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(bob.getByRole('status', { name: 'Connection' })).toHaveText('No access', { timeout: 15_000 });
  await expect(bob.getByText('you are editor')).toHaveCount(0);
  await expect(bob.getByRole('button', { name: '+ Add page' })).toHaveCount(0);
});

test('a live space’s people and sources panels: invite by e-mail and join from the link, link access, upload, hide from AI, delete', async ({ browser }) => {
  const owner = await signedInPage(browser, 'live-owner', '/w/new');
  await owner.getByLabel('Name', { exact: true }).fill('Live Team');
  await owner.getByLabel('Slug').fill('live-team');
  await owner.getByRole('button', { name: 'Create workspace' }).click();
  await expect(owner).toHaveURL(/\/w\/live-team$/);
  await owner.getByRole('link', { name: 'Live spaces', exact: true }).click();
  await owner.getByLabel('Name').fill('Wall');
  await owner.getByLabel('Template').selectOption('notes');
  await owner.getByRole('button', { name: 'Create live space' }).click();
  await expect(owner).toHaveURL(/\/live-spaces\/[\w-]+$/);
  const url = owner.url();
  await expect(owner.getByRole('textbox', { name: 'Page Notes' })).toContainText('Meeting notes');

  // Invite by e-mail: the link is shown once; the invite waits in the list.
  await owner.getByRole('tab', { name: 'people' }).click();
  const people = owner.getByRole('region', { name: 'People' });
  await people.getByLabel('Handle or e-mail').fill('guest@example.com');
  await people.getByLabel('Role').selectOption('commenter');
  await people.getByRole('button', { name: 'Add' }).click();
  const inviteUrl = await owner.getByRole('status', { name: 'New invite link' }).getByLabel('Invite link').inputValue();
  expect(inviteUrl).toMatch(/\/live-space-invites\/[\w-]+$/);
  await expect(people.getByRole('list', { name: 'Pending invites' })).toContainText('guest@example.com · commenter');

  // The guest opens the link signed out, signs in from it, joins as a commenter and can chat.
  const guest = await (await browser.newContext()).newPage();
  await guest.goto(inviteUrl);
  await guest.getByLabel('Handle').fill('live-guest');
  await guest.getByRole('button', { name: 'Sign in' }).click();
  await guest.getByRole('button', { name: 'Join the live space' }).click();
  await expect(guest).toHaveURL(url);
  await expect(guest.getByText('you are commenter')).toBeVisible();
  await expect(guest.getByRole('textbox', { name: 'Page Notes' })).toHaveAttribute('contenteditable', 'false');
  await guest.getByRole('textbox', { name: 'Message' }).fill('Thanks for the invite');
  await guest.getByRole('textbox', { name: 'Message' }).press('Enter');
  await owner.getByRole('tab', { name: 'chat' }).click();
  await expect(owner.getByRole('region', { name: 'Chat' }).getByRole('listitem', { name: 'Message from @live-guest' })).toContainText('Thanks for the invite');
  await owner.getByRole('tab', { name: 'people' }).click();
  await expect(people.getByRole('list', { name: 'Members' })).toContainText('@live-guest');
  await expect(people.getByRole('list', { name: 'Pending invites' })).toHaveCount(0);
  // The link was for one use.
  await guest.goto(inviteUrl);
  await guest.getByRole('button', { name: 'Join the live space' }).click();
  await expect(guest.getByRole('main').getByRole('alert')).toHaveText('This invite link has already been used.');

  // Link access: someone signed in with the link joins as a viewer and cannot type.
  await people.getByLabel('Link access').selectOption('viewer');
  await expect(people.getByLabel('Link access')).toHaveValue('viewer');
  const visitor = await signedInPage(browser, 'live-visitor');
  await visitor.goto(url);
  await expect(visitor.getByText('you are viewer')).toBeVisible();
  await expect(visitor.getByRole('textbox', { name: 'Page Notes' })).toHaveAttribute('contenteditable', 'false');
  await expect(visitor.getByRole('textbox', { name: 'Message' })).toHaveCount(0);

  // Sources: upload with a progress bar, read, hidden from AI, deleted; the guest's open panel follows without reloading.
  await guest.goto(url);
  await guest.getByRole('tab', { name: 'sources' }).click();
  const guestSources = guest.getByRole('region', { name: 'Sources' });
  await expect(guestSources).toContainText('No sources yet.');
  await owner.getByRole('tab', { name: 'sources' }).click();
  const sources = owner.getByRole('region', { name: 'Sources' });
  await sources.locator('input[type=file]').setInputFiles({ name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n\nThe launch is on Friday.\n') });
  const file = sources.getByRole('list', { name: 'Source files' }).getByRole('listitem').filter({ hasText: 'notes.md' });
  await expect(file).toContainText('characters read');
  await expect(file).toContainText('The launch is on Friday.');
  await expect(guestSources).toContainText('notes.md');
  // The box follows the server's answer, not the click.
  await file.getByLabel('Hide from AI').click();
  await expect(file).toContainText('hidden from AI');
  await expect(file.getByLabel('Hide from AI')).toBeChecked();
  await owner.reload();
  await owner.getByRole('tab', { name: 'sources' }).click();
  await expect(file).toContainText('hidden from AI');
  await file.getByRole('button', { name: 'Delete' }).click();
  await owner.getByRole('dialog').getByRole('button', { name: 'Delete source' }).click();
  await expect(sources).toContainText('No sources yet.');
  await expect(guestSources).toContainText('No sources yet.');
});

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAAABJRU5ErkJggg==', 'base64');

test('a live space’s editor has a toolbar for checklists and tables, and takes images chosen, pasted and dropped, with progress', async ({ browser }) => {
  const handle = `writer-${Date.now().toString(36)}`;
  const page = await signedInPage(browser, handle);
  const space = await page.evaluate(async (workspace) => {
    const response = await fetch('/v1/live-spaces', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ workspace, name: 'Board' }) });
    return response.json();
  }, handle);
  await page.goto(`/live-spaces/${space.id}`);
  const editor = page.getByRole('textbox', { name: /^Page / });
  await editor.click();
  await page.keyboard.press('Control+End');
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  await toolbar.getByRole('button', { name: 'Checklist' }).click();
  await page.keyboard.type('Bring snacks');
  await expect(toolbar.getByRole('button', { name: 'Checklist' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');

  // Chosen with the toolbar's button: uploaded with progress, placed as an image block.
  await toolbar.getByLabel('Choose images').setInputFiles({ name: 'chosen.png', mimeType: 'image/png', buffer: PNG });
  await expect(editor.locator('img[alt="chosen"]')).toBeVisible();
  await expect.poll(() => editor.locator('img[alt="chosen"]').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await page.keyboard.press('Control+End');
  await toolbar.getByRole('button', { name: 'Table' }).click();
  await page.keyboard.type('Who');
  await expect(editor.locator('table th').first()).toHaveText('Who');
  // Pasted and dropped.
  for (const [kind, name] of [['paste', 'pasted'], ['drop', 'dropped']] as const) {
    await editor.evaluate(
      (root, { kind, name, bytes }) => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(bytes)], `${name}.png`, { type: 'image/png' }));
        const box = root.getBoundingClientRect();
        const event =
          kind === 'paste'
            ? new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true })
            : new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true, clientX: box.left + 10, clientY: box.top + 10 });
        root.dispatchEvent(event);
      },
      { kind, name, bytes: [...PNG] },
    );
    await expect(editor.locator(`img[alt="${name}"]`)).toBeVisible();
  }
  // What the editor wrote, the Markdown export reads.
  await expect
    .poll(async () => page.evaluate(async (id) => (await fetch(`/v1/live-spaces/${id}/markdown`)).text(), space.id))
    .toMatch(/- \[ \] Bring snacks[\s\S]*!\[chosen\]\(http[^)]*\/v1\/live-spaces\/[\w-]+\/images\/img_\w+\)[\s\S]*\| Who[\s\S]*!\[pasted\]/);
});
