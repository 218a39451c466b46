// A space's files as GitHub shows a repository's, at desktop and phone widths,
// light and dark: the README under the file list, a tree of folders that open
// in place with sizes, numbered lines to link to, diffs unified or split, and
// any two versions compared.
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, expectNoSideways, push, signIn } from './helpers.ts';

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const code = (changed: Record<number, string> = {}) => Array.from({ length: 40 }, (_, i) => changed[i + 1] ?? `const line${i + 1} = ${i + 1}; // ${'padding '.repeat(i % 3)}`).join('\n') + '\n';

/** The same page in both colour schemes: each checked by axe and kept as a screenshot. */
async function inBothSchemes(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoSideways(page);
    await page.screenshot({ path: `.atrium/test-results/e2e/file-views-${name}-${scheme}.png`, fullPage: true });
    await expectAccessible(page);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

for (const size of WIDTHS) {
  test.describe(`at ${size.width} pixels`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('a person reads a space like a repository: README, tree, linked lines, diffs and comparisons', async ({ page, request }) => {
      // Eight pages checked by axe.
      test.setTimeout(120_000);
      const handle = `files-${size.name}-${randomBytes(3).toString('hex')}`;
      await signIn(page, handle);
      const { token } = await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json();
      const space = await (await request.post('/v1/spaces', { headers: { authorization: `Bearer ${token}` }, data: { workspace: handle, name: 'Guide', visibility: 'members' } })).json();
      const first = {
        'README.md': '# Guide\n\nRead **this** first. <b>raw</b>\n',
        'docs/readme.md': '# Docs\n\nThe documentation.\n',
        'docs/guide/intro.txt': 'Hello\n',
        'src/app.js': code(),
        'notes.txt': 'one\ntwo\n',
      };
      await push(request, token, space.id, first, 'First');
      const { 'notes.txt': _, ...kept } = first;
      await push(request, token, space.id, { ...kept, 'src/app.js': code({ 5: 'const five = "5";', 20: 'const twenty = 20;' }), 'CHANGELOG.md': '# Changes\n' }, 'Second');
      await push(request, token, space.id, { ...kept, 'src/app.js': code({ 5: 'const five = "5";', 20: 'const twenty = 20;' }), 'CHANGELOG.md': '# Changes\n', 'README.md': '# Guide\n\nRead this first, again.\n' }, 'Third');

      // The root: its list with sizes, and the README rendered under it without its raw HTML.
      await page.goto(`/spaces/${space.id}`);
      const list = page.getByRole('region', { name: 'Folder /' });
      await expect(list.locator('tbody tr')).toHaveText([/^docs\/\s*\d+ bytes$/, /^src\/\s*[\d.]+ KB$/, /^CHANGELOG\.md/, /^README\.md\s*\d+ bytes$/]);
      const readme = page.getByRole('region', { name: 'File README.md' });
      await expect(readme.getByRole('heading', { name: 'Guide' })).toBeVisible();
      await expect(readme).toContainText('again');
      // Version 1's README has raw HTML: shown as text, never as markup.
      await page.goto(`/spaces/${space.id}?v=1`);
      await expect(readme).toContainText('Read this first. <b>raw</b>');
      await expect(readme.locator('b')).toHaveCount(0);
      await page.goto(`/spaces/${space.id}`);

      // The tree: folders closed until opened, by mouse or keyboard, each with its size.
      const tree = page.getByRole('navigation', { name: 'Files' });
      if (size.name === 'phone') {
        // One column: a folder's files are listed once, by the folder's list; the tree shows beside a file.
        await expect(tree).toBeHidden();
        await page.goto(`/spaces/${space.id}?path=README.md`);
      }
      const docs = tree.locator('details', { has: page.locator('summary', { hasText: 'docs/' }) }).first();
      await expect(docs).toHaveJSProperty('open', false);
      await expect(tree.getByRole('link', { name: 'intro.txt' })).toBeHidden();
      await tree.locator('summary', { hasText: 'docs/' }).click();
      await expect(docs).toHaveJSProperty('open', true);
      await tree.locator('summary', { hasText: 'guide/' }).focus();
      await page.keyboard.press('Enter');
      await expect(tree.getByRole('link', { name: 'intro.txt' })).toBeVisible();
      await expect(tree.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'intro.txt' }) }).last()).toHaveText('intro.txt6 bytes');
      await page.keyboard.press('Enter');
      await expect(tree.getByRole('link', { name: 'intro.txt' })).toBeHidden();
      await inBothSchemes(page, `root-${size.name}`);
      if (size.name === 'phone') await page.goto(`/spaces/${space.id}`);

      // A folder of the list: its own README under it.
      await list.getByRole('link', { name: 'docs/' }).click();
      await expect(page).toHaveURL(/dir=docs$/);
      await expect(page.getByRole('region', { name: 'File docs/readme.md' }).getByRole('heading', { name: 'Docs' })).toBeVisible();
      // Beside a folder's list the tree opens at the folder (on phones the list alone shows).
      if (size.name === 'desktop') await expect(tree.locator('summary', { hasText: 'docs/' }).locator('..')).toHaveJSProperty('open', true);
      else await expect(tree).toBeHidden();

      // Numbered lines: a click selects one, a shift-click a range, and the address says which.
      await page.goto(`/spaces/${space.id}?path=src%2Fapp.js`);
      const lines = page.getByRole('group', { name: 'Lines of src/app.js' });
      await lines.getByRole('link', { name: '5', exact: true }).click();
      // The address pins the version shown, as GitHub's permalinks pin a commit.
      await expect(page).toHaveURL(/[?&]v=3#L5$/);
      await expect(lines.locator('tr[data-selected]')).toHaveCount(1);
      await lines.getByRole('link', { name: '12', exact: true }).click({ modifiers: ['Shift'] });
      await expect(page).toHaveURL(/#L5-L12$/);
      await expect(lines.locator('tr[data-selected]')).toHaveCount(8);
      await expect(lines.locator('tr[data-selected]').first()).toContainText('const five');
      // An address with lines highlights them and scrolls to them.
      await page.goto(`/spaces/${space.id}?path=src%2Fapp.js#L30-L33`);
      await expect(lines.locator('tr[data-selected]')).toHaveCount(4);
      await expect(lines.locator('#L30')).toBeInViewport();
      await inBothSchemes(page, `lines-${size.name}`);

      // From History to a comparison of any two versions.
      await page.getByRole('navigation', { name: 'Space' }).getByRole('link', { name: 'History' }).click();
      await page.getByRole('link', { name: 'Compare versions' }).click();
      await expect(page).toHaveURL(new RegExp(`/spaces/${space.id}/history/compare\\?base=2&head=3$`));
      const compare = page.getByRole('region', { name: 'Compare versions' });
      await expect(compare).toContainText('0 files added, 1 changed, 0 removed, 4 unchanged');
      await compare.getByLabel('Base version').selectOption('1');
      await compare.getByLabel('Compared with').selectOption('2');
      await compare.getByRole('button', { name: 'Compare', exact: true }).click();
      await expect(page).toHaveURL(/base=1&head=2$/);
      await expect(compare).toContainText('1 file added, 1 changed, 1 removed, 3 unchanged');
      await expect(compare.getByRole('link', { name: 'CHANGELOG.md' })).toHaveAttribute('href', /v=2&path=CHANGELOG.md/);
      await expect(compare.getByRole('link', { name: 'notes.txt' })).toHaveAttribute('href', /v=1&path=notes.txt/);
      const diff = compare.getByRole('figure', { name: 'Diff of src/app.js' });
      await expect(diff).toContainText('removed: const line5 = 5;');
      await expect(diff).toContainText('added: const five = "5";');

      // Unified or split, remembered in this browser; a phone shows unified and says why.
      const layout = compare.getByRole('group', { name: 'Diff layout' });
      await expect(layout.getByRole('button', { name: 'Unified' })).toHaveAttribute('aria-pressed', 'true');
      // Clicked again until the page has hydrated and takes it.
      await expect(async () => {
        await layout.getByRole('button', { name: 'Split' }).click();
        await expect(layout.getByRole('button', { name: 'Split' })).toHaveAttribute('aria-pressed', 'true', { timeout: 1000 });
      }).toPass();
      await page.reload();
      await expect(layout.getByRole('button', { name: 'Split' })).toHaveAttribute('aria-pressed', 'true');
      const shown = diff.getByRole('group', { name: 'Lines of src/app.js' });
      if (size.name === 'desktop') {
        await expect(shown).toHaveAttribute('data-layout', 'split');
        await expect(shown.locator('tr', { hasText: 'const five' }).locator('td')).toHaveCount(4);
      } else {
        await expect(shown).toHaveAttribute('data-layout', 'unified');
        await expect(compare).toContainText('Split needs a wider screen: shown unified here.');
      }
      await inBothSchemes(page, `compare-split-${size.name}`);
      await layout.getByRole('button', { name: 'Unified' }).click();
      await expect(shown).toHaveAttribute('data-layout', 'unified');
      await inBothSchemes(page, `compare-unified-${size.name}`);

      // The same comparison swapped, from the history of one version.
      await page.goto(`/spaces/${space.id}/history?v=2`);
      await page.getByRole('link', { name: 'Compare with another version' }).click();
      await expect(page).toHaveURL(/base=1&head=2$/);
      await page.getByRole('link', { name: 'Swap' }).click();
      await expect(compare).toContainText('1 file added, 1 changed, 1 removed');
      await expect(compare.getByRole('link', { name: 'notes.txt' })).toHaveAttribute('href', /v=1&path=notes.txt/);
    });
  });
}
