import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signedInPage } from './helpers.ts';

test('one person deletes half a page and restores the earlier version from History; the other sees it without reloading', async ({ browser }) => {
  // Four axe runs on a loaded 2-core machine take most of it.
  test.setTimeout(240_000);
  const id = randomBytes(3).toString('hex');
  const bob = await signedInPage(browser, `history-bob-${id}`);
  const ada = await signedInPage(browser, `history-ada-${id}`, '/w/new');
  await ada.getByLabel('Name', { exact: true }).fill('History Team');
  await ada.getByLabel('Slug').fill(`history-team-${id}`);
  await ada.getByRole('button', { name: 'Create workspace' }).click();
  await expect(ada).toHaveURL(new RegExp(`/w/history-team-${id}$`));
  await ada.getByRole('link', { name: 'Rooms', exact: true }).click();
  await ada.getByLabel('Name').fill('Minutes');
  await ada.getByRole('button', { name: 'Create room' }).click();
  await expect(ada).toHaveURL(/\/rooms\/[\w-]+$/);
  const roomUrl = ada.url();
  await expect(ada.getByRole('status', { name: 'Connection' })).toHaveText('Live');
  await ada.getByRole('tab', { name: 'people' }).click();
  const people = ada.getByRole('region', { name: 'People' });
  await people.getByLabel('Handle or e-mail').fill(`history-bob-${id}`);
  await people.getByRole('button', { name: 'Add' }).click();
  await expect(people.getByRole('list', { name: 'Members' })).toContainText(`@history-bob-${id}`);

  await bob.goto(roomUrl);
  await expect(bob.getByRole('status', { name: 'Connection' })).toHaveText('Live');
  const adaEditor = ada.getByRole('textbox', { name: 'Page Page 1' });
  const bobEditor = bob.getByRole('textbox', { name: 'Page Page 1' });

  // Ada writes ten lines and keeps the page under a name.
  await adaEditor.click();
  for (let i = 1; i <= 10; i++) {
    await ada.keyboard.type(`Line ${i} of the minutes.`);
    if (i < 10) await ada.keyboard.press('Enter');
  }
  await expect(bobEditor).toContainText('Line 10 of the minutes.');
  await ada.getByRole('tab', { name: 'history' }).click();
  const history = ada.getByRole('region', { name: 'History' });
  await history.getByLabel('Keep this version as').fill('All ten lines');
  await history.getByRole('button', { name: 'Keep' }).click();
  await expect(ada.getByText('Kept this page as “All ten lines”.')).toBeVisible();
  await expect(history.getByRole('list', { name: 'Versions' })).toContainText('All ten lines');

  // Then deletes the second half by mistake: Bob sees it go.
  await adaEditor.click();
  await ada.keyboard.press('Control+End');
  for (let i = 0; i < 5; i++) await ada.keyboard.press('Shift+ArrowUp');
  await ada.keyboard.press('Shift+End');
  await ada.keyboard.press('Backspace');
  await expect(bobEditor).not.toContainText('Line 8 of the minutes.');
  await expect(bobEditor).toContainText('Line 3 of the minutes.');

  // History shows what changed since the kept version, then restores it after asking.
  await history.getByLabel('From').selectOption({ label: await history.getByLabel('From').locator('option', { hasText: 'All ten lines' }).innerText() });
  await history.getByRole('button', { name: 'Show changes' }).click();
  const changes = history.getByRole('figure', { name: 'Changes' });
  await expect(changes.locator('del')).toContainText(['Line 8 of the minutes.']);
  // The panel with its versions and a diff, at both widths, light and dark: no serious or critical axe violation.
  for (const [width, scheme] of [[1280, 'light'], [1280, 'dark'], [390, 'light'], [390, 'dark']] as const) {
    await ada.setViewportSize({ width, height: 844 });
    await ada.emulateMedia({ colorScheme: scheme });
    await history.scrollIntoViewIfNeeded();
    await ada.screenshot({ path: `.atrium/test-results/e2e/room-history-${width}-${scheme}.png`, fullPage: true });
    const { violations } = await new AxeBuilder({ page: ada }).include('section[aria-label="History"]').analyze();
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${width} ${scheme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
  await ada.emulateMedia({ colorScheme: 'light' });
  await ada.setViewportSize({ width: 1280, height: 844 });
  // Bob's page is marked: a reload would lose the mark.
  await bob.evaluate(() => ((window as Window & { beforeRestore?: boolean }).beforeRestore = true));
  await history.getByRole('listitem').filter({ hasText: 'All ten lines' }).getByRole('button', { name: /^Restore/ }).click();
  const dialog = ada.getByRole('dialog');
  await expect(dialog).toContainText('Restore “All ten lines”?');
  await dialog.getByRole('button', { name: 'Restore' }).click();
  await expect(ada.getByText('Restored “All ten lines”.')).toBeVisible();

  // Both pages hold the ten lines again, Bob's without a reload.
  await expect(bobEditor).toContainText('Line 10 of the minutes.');
  await expect(adaEditor).toContainText('Line 10 of the minutes.');
  expect(await bob.evaluate(() => (window as Window & { beforeRestore?: boolean }).beforeRestore)).toBe(true);
  await expect(history.getByRole('list', { name: 'Versions' })).toContainText(`before @history-ada-${id} restored`);
});
