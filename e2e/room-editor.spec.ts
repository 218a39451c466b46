// The room editor people write in: "/" opens a menu of blocks, narrowed as one
// types and chosen with the keyboard or a click; "@" lists the room's people
// and inserts a mention, which reaches the person mentioned in their inbox and
// by e-mail, both linking to the page. Checked at 1280 and 390 pixels, light
// and dark.
import { expect, test, type Page } from '@playwright/test';
import { e2eSmtpPort } from '../playwright.config.ts';
import { mailText, startSmtpServer } from '../test/smtp-server.ts';
import { expectAccessible, expectNoSideways, signedInPage } from './helpers.ts';

test('a person writes with the slash menu and mentions someone of the room, who follows the bell or the mail to the page', async ({ browser }) => {
  // Two people, four accessibility checks: longer than a default test.
  test.setTimeout(120_000);
  const smtp = await startSmtpServer(e2eSmtpPort);
  try {
    // Bea signs in by e-mail, so a mention can reach her.
    const bea = await (await browser.newContext()).newPage();
    await bea.goto('/signin');
    await bea.getByLabel('E-mail address').fill('bea.writer@example.com');
    await bea.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await expect(bea.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
    await expect.poll(() => smtp.mails.length).toBe(1);
    await bea.goto(/http:\/\/localhost:\d+\/signin\/confirm\?[^\s"<]+/.exec(mailText(smtp.mails[0]))![0]);
    await bea.getByRole('link', { name: 'Sign in' }).last().click();
    await expect(bea.getByRole('button', { name: 'Your account: @bea-writer' })).toBeVisible();

    // Ada makes a workspace and a room, and adds Bea to it.
    const ada = await signedInPage(browser, 'editor-ada', '/w/new');
    await ada.getByLabel('Name', { exact: true }).fill('Editor Team');
    await ada.getByLabel('Slug').fill('editor-team');
    await ada.getByRole('button', { name: 'Create workspace' }).click();
    await expect(ada).toHaveURL(/\/w\/editor-team$/);
    await ada.getByRole('link', { name: 'Rooms', exact: true }).click();
    await ada.getByLabel('Name').fill('Field trip');
    await ada.getByRole('button', { name: 'Create room' }).click();
    await expect(ada).toHaveURL(/\/rooms\/[\w-]+$/);
    const roomId = ada.url().split('/').pop()!;
    await expect(ada.getByRole('status', { name: 'Connection' })).toHaveText('Live');
    await ada.getByRole('tab', { name: 'people' }).click();
    const people = ada.getByRole('region', { name: 'People' });
    await people.getByLabel('Handle or e-mail').fill('bea-writer');
    await people.getByRole('button', { name: 'Add' }).click();
    await expect(people.getByRole('list', { name: 'Members' })).toContainText('@bea-writer');

    await ada.getByRole('tab', { name: 'chat' }).click();
    const editor = ada.getByRole('textbox', { name: 'Page Page 1' });
    const blocks = ada.getByRole('listbox', { name: 'Blocks' });
    await editor.click();

    // "/" opens the blocks; the editor keeps focus and points at the highlighted one.
    await ada.keyboard.type('/');
    await expect(blocks).toBeVisible();
    await expect(blocks.getByRole('option')).toHaveCount(11);
    await expect(editor).toBeFocused();
    const highlighted = async () => (await editor.getAttribute('aria-activedescendant'))!;
    await expect(blocks.getByRole('option', { selected: true })).toHaveText(/Heading 1/);
    expect(await ada.locator(`[id="${await highlighted()}"]`).textContent()).toContain('Heading 1');

    // Typing narrows it; arrows move; Enter chooses.
    await ada.keyboard.type('head');
    await expect(blocks.getByRole('option')).toHaveText([/Heading 1/, /Heading 2/, /Heading 3/]);
    await ada.keyboard.press('ArrowDown');
    await expect(blocks.getByRole('option', { selected: true })).toHaveText(/Heading 2/);
    expect(await ada.locator(`[id="${await highlighted()}"]`).textContent()).toContain('Heading 2');
    await ada.keyboard.press('Enter');
    await expect(blocks).toBeHidden();
    await expect(editor).not.toHaveAttribute('aria-activedescendant');
    await ada.keyboard.type('Packing');
    await expect(editor.locator('h2')).toHaveText('Packing');

    // A checklist, by a word of its own.
    await ada.keyboard.press('Enter');
    await ada.keyboard.type('/check');
    await expect(blocks.getByRole('option')).toHaveText([/Checklist/]);
    await ada.keyboard.press('Enter');
    await ada.keyboard.type('Tents');
    await expect(editor.locator('ul[data-type="taskList"] li p')).toHaveText('Tents');
    await ada.keyboard.press('Enter');
    await ada.keyboard.press('Enter');

    // Escape closes the menu and leaves what was typed.
    await ada.keyboard.type('/quo');
    await expect(blocks).toBeVisible();
    await ada.keyboard.press('Escape');
    await expect(blocks).toBeHidden();
    await expect(editor.getByText('/quo', { exact: true })).toBeVisible();
    for (let i = 0; i < 4; i++) await ada.keyboard.press('Backspace');

    // The menu at both widths, light and dark.
    await ada.keyboard.type('/');
    await expect(blocks).toBeVisible();
    for (const [width, scheme] of [[1280, 'light'], [1280, 'dark'], [390, 'light'], [390, 'dark']] as const) {
      await ada.setViewportSize({ width, height: 844 });
      await ada.emulateMedia({ colorScheme: scheme });
      await expect(blocks).toBeInViewport();
      await ada.screenshot({ path: `.atrium/test-results/e2e/room-editor-slash-${width}-${scheme}.png` });
      await expectAccessible(ada);
      await expectNoSideways(ada);
    }
    await ada.emulateMedia({ colorScheme: 'light' });
    await ada.setViewportSize({ width: 1280, height: 844 });

    // "@" lists the room's people; choosing Bea inserts a mention and mails her.
    await ada.keyboard.press('Backspace');
    await ada.keyboard.type('Ask @bea');
    const peopleMenu = ada.getByRole('listbox', { name: 'People' });
    await expect(peopleMenu.getByRole('option')).toHaveText([/bea-writer/]);
    await ada.setViewportSize({ width: 390, height: 844 });
    await ada.emulateMedia({ colorScheme: 'dark' });
    await ada.screenshot({ path: '.atrium/test-results/e2e/room-editor-mention-390-dark.png' });
    await expectAccessible(ada);
    await ada.emulateMedia({ colorScheme: 'light' });
    await ada.setViewportSize({ width: 1280, height: 844 });
    const told = ada.waitForResponse((response) => response.url().endsWith(`/v1/rooms/${roomId}/mentions`));
    await ada.keyboard.press('Enter');
    expect(await (await told).json()).toEqual({ notified: true, mailed: true });
    await expect(editor.locator('.mention')).toHaveText('@bea-writer');
    await ada.keyboard.type('about the tents.');
    await expect(editor.getByText('Ask @bea-writer about the tents.', { exact: true })).toBeVisible();
    await expect.poll(() => smtp.mails.length).toBe(2);
    expect(smtp.mails[1].to).toEqual(['<bea.writer@example.com>']);
    const mail = mailText(smtp.mails[1]);
    expect(mail).toContain('@editor-ada mentioned you');

    // Link opens the toolbar's address field; with nothing selected the address is the text.
    await ada.keyboard.press('Enter');
    await ada.keyboard.type('/link');
    await ada.keyboard.press('Enter');
    await expect(ada.getByLabel('Link address')).toBeFocused();
    await ada.getByLabel('Link address').fill('https://example.com/map');
    await ada.keyboard.press('Enter');
    await expect(editor.getByRole('link', { name: 'https://example.com/map' })).toBeVisible();
    await expect(editor).toBeFocused();

    // A block chosen by a click: a table at the end of the page.
    await ada.keyboard.press('Enter');
    await ada.keyboard.type('/tab');
    await blocks.getByRole('option', { name: /Table/ }).click();
    await expect(editor.locator('table tr')).toHaveCount(3);
    await expect(editor).toBeFocused();

    // The mail links to the page; so does Bea's inbox, where she follows the bell to it and sees the mention.
    const pageLink = new RegExp(`http://localhost:\\d+(/rooms/${roomId}\\?page=[\\w-]+)`).exec(mail)!;
    await bea.goto('/');
    const bell = bea.getByRole('link', { name: /^Notifications/ });
    await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
    await bell.click();
    const entry = bea.getByRole('link', { name: /@editor-ada mentioned you on a page of Field trip$/ });
    await expect(entry).toHaveAttribute('href', pageLink[1]);
    await bea.setViewportSize({ width: 390, height: 844 });
    await bea.emulateMedia({ colorScheme: 'dark' });
    await bea.screenshot({ path: '.atrium/test-results/e2e/room-editor-inbox-390-dark.png' });
    await expectAccessible(bea);
    await expectNoSideways(bea);
    await entry.click();
    await expect(bea).toHaveURL(new RegExp(`/rooms/${roomId}\\?page=`));
    const beaEditor = bea.getByRole('textbox', { name: 'Page Page 1' });
    await expect(beaEditor.locator('.mention')).toHaveText('@bea-writer');
    await expect(bell).toHaveAccessibleName('Notifications');

    // The Markdown export has the blocks and the mention.
    await expect
      .poll(async () => (await ada.request.get(`/v1/rooms/${roomId}/markdown`)).text(), { timeout: 15_000 })
      .toMatch(/## Packing[\s\S]*- \[ \] Tents[\s\S]*Ask @bea-writer about the tents\.[\s\S]*\| --- \| --- \| --- \|/);
  } finally {
    await smtp.close();
  }
});
