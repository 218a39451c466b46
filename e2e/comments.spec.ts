// Comments as people use them in the browser: select text in a file and
// comment, a second person replies, the thread is resolved, a guest comments
// on a public space that takes guest comments, and a thread is started on a
// published page in review mode (the sandboxed frame).
import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { signIn, push } from './helpers.ts';

async function token(request: APIRequestContext, handle: string): Promise<string> {
  const answer = await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } });
  expect(answer.status()).toBe(200);
  return (await answer.json()).token;
}

/** Selects `text` inside `within` with the mouse, as a person drags over it. */
async function dragSelect(page: Page, within: Locator, text: string) {
  const box = await within.evaluate((root, wanted) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = (node as Text).data.indexOf(wanted);
      if (at === -1) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + wanted.length);
      const rects = range.getClientRects();
      const first = rects[0];
      const last = rects[rects.length - 1];
      return { x1: first.left + 1, y1: first.top + first.height / 2, x2: last.right - 1, y2: last.top + last.height / 2 };
    }
    return null;
  }, text);
  if (!box) throw new Error(`"${text}" is not on the page`);
  await page.mouse.move(box.x1, box.y1);
  await page.mouse.down();
  await page.mouse.move(box.x2, box.y2, { steps: 5 });
  await page.mouse.up();
}

const README = '# Field notes\n\nThe quick brown fox jumps over the lazy dog near the river bank.\n';
const PAGE = '<!doctype html><html><head><title>Launch page</title></head><body><h1>Launch</h1><p id="pitch">Our product ships on Tuesday with three new features.</p></body></html>';

test('people comment on a file, reply, resolve; a guest comments; a page is reviewed in its frame', async ({ page, request, browser }) => {
  const tag = randomBytes(3).toString('hex');
  const owner = `cmt-owner-${tag}`;
  const reviewer = `cmt-rev-${tag}`;
  const ownerToken = await token(request, owner);
  const reviewerToken = await token(request, reviewer);
  const auth = (t: string) => ({ authorization: `Bearer ${t}` });

  const created = await request.post('/v1/spaces', { headers: auth(ownerToken), data: { workspace: owner, name: 'Notes' } });
  expect(created.status()).toBeLessThan(300);
  const spaceId: string = (await created.json()).id;
  await push(request, ownerToken, spaceId, { 'README.md': README, 'index.html': PAGE }, 'First');
  // The reviewer joins the owner's workspace as a viewer (viewers may comment).
  expect((await request.post(`/v1/workspaces/${owner}/members`, { headers: auth(ownerToken), data: { handle: reviewer, role: 'viewer' } })).status()).toBeLessThan(300);
  expect((await request.post(`/v1/workspaces/${owner}/accept`, { headers: auth(reviewerToken) })).status()).toBeLessThan(300);

  // The owner opens the file, follows "Comments", selects a few words and comments.
  await signIn(page, owner);
  await page.goto(`/spaces/${spaceId}?path=README.md`);
  await page.getByRole('region', { name: 'File README.md' }).getByRole('link', { name: 'Comments' }).click();
  await expect(page).toHaveURL(/\/comments\?path=README\.md$/);
  const file = page.getByRole('region', { name: 'File README.md' });
  await dragSelect(page, file, 'brown fox jumps');
  const form = page.getByRole('form', { name: 'New comment' });
  await expect(form.getByLabel('Selected text')).toContainText('brown fox');
  await form.getByRole('textbox', { name: 'Comment' }).fill('Is it **really** a fox?');
  await form.getByRole('button', { name: 'Comment' }).click();
  const thread = page.getByRole('listitem', { name: `Thread by @${owner}` });
  await expect(thread).toContainText('brown fox');
  await expect(thread.locator('strong')).toHaveText('really');
  // Times read as in chat and the inbox: relative while recent.
  await expect(thread.locator('time').first()).toHaveText('just now');
  // The form is ready for the next comment.
  await expect(form.getByRole('textbox', { name: 'Comment' })).toHaveValue('');
  // The quote is highlighted in the file.
  await expect.poll(() => page.evaluate(() => (CSS as unknown as { highlights: Map<string, unknown> }).highlights.has('atrium-comments'))).toBe(true);
  // …and shown: the highlight has a style of its own.
  const styled = await page.evaluate(() =>
    [...document.styleSheets].some((sheet) => [...sheet.cssRules].some((rule) => rule instanceof CSSStyleRule && rule.selectorText.includes('::highlight(atrium-comments)') && rule.style.backgroundColor !== '')),
  );
  expect(styled).toBe(true);

  // The reviewer, in another browser, sees the thread and replies.
  const reviewerContext = await browser.newContext();
  const other = await reviewerContext.newPage();
  await signIn(other, reviewer);
  await other.goto(`/spaces/${spaceId}/comments`);
  await other.getByRole('link', { name: 'README.md' }).first().click();
  const theirThread = other.getByRole('listitem', { name: `Thread by @${owner}` });
  await expect(theirThread).toContainText('Is it really a fox?');
  await theirThread.getByRole('textbox', { name: 'Reply' }).fill('Yes, I saw it myself.');
  await theirThread.getByRole('button', { name: 'Reply' }).click();
  await expect(theirThread).toContainText(`@${reviewer}`);
  await expect(theirThread).toContainText('Yes, I saw it myself.');
  // A viewer did not write the thread and cannot push: no Resolve for them.
  await expect(theirThread.getByRole('button', { name: 'Resolve' })).toHaveCount(0);

  // The owner's page picks the reply up without a reload, then resolves.
  await expect(thread).toContainText('Yes, I saw it myself.', { timeout: 15_000 });
  await thread.getByRole('button', { name: 'Resolve' }).click();
  await expect(page.getByRole('listitem', { name: `Thread by @${owner}` })).toHaveCount(0);
  await expect(page.getByText('No open threads on this file.')).toBeVisible();
  await page.getByLabel('Thread status').selectOption('resolved');
  await expect(thread).toContainText(`Resolved by @${owner}`);
  await expect(thread.getByRole('button', { name: 'Reopen' })).toBeVisible();

  // A guest (signed out) on the public space, once it takes guest comments.
  expect((await request.patch(`/v1/spaces/${spaceId}`, { headers: auth(ownerToken), data: { guestComments: true } })).status()).toBe(200);
  const guestContext = await browser.newContext();
  const guest = await guestContext.newPage();
  await guest.goto(`/spaces/${spaceId}/comments?path=README.md`);
  await dragSelect(guest, guest.getByRole('region', { name: 'File README.md' }), 'lazy dog');
  await guest.getByLabel('Your name').fill('Vera Visitor');
  const guestForm = guest.getByRole('form', { name: 'New comment' });
  await expect(guestForm.getByLabel('Selected text')).toContainText('lazy dog');
  await guestForm.getByRole('textbox', { name: 'Comment' }).fill('Lovely dog.');
  await guestForm.getByRole('button', { name: 'Comment' }).click();
  const guestThread = guest.getByRole('listitem', { name: 'Thread by Vera Visitor (guest)' });
  await expect(guestThread).toContainText('Lovely dog.');
  // The guest's own comment can be edited from the same browser.
  await expect(guestThread.getByRole('button', { name: 'Edit' })).toBeVisible();
  await page.getByLabel('Thread status').selectOption('open');
  await expect(page.getByRole('listitem', { name: 'Thread by Vera Visitor (guest)' })).toContainText('Lovely dog.', { timeout: 15_000 });
  await guestContext.close();

  // Review mode: the published page in its sandboxed frame; select a sentence there.
  await page.goto(`/spaces/${spaceId}/comments?path=index.html`);
  await page.getByRole('link', { name: 'Review the page' }).click();
  const frame = page.frameLocator('iframe[title="Review of index.html"]');
  await expect(frame.locator('#pitch')).toBeVisible();
  await frame.locator('#pitch').click({ clickCount: 3 });
  const reviewForm = page.getByRole('form', { name: 'New comment' });
  await expect(reviewForm.getByLabel('Selected text')).toContainText('ships on Tuesday');
  await reviewForm.getByRole('textbox', { name: 'Comment' }).fill('Wednesday, surely?');
  await reviewForm.getByRole('button', { name: 'Comment' }).click();
  const reviewThread = page.getByRole('listitem', { name: `Thread by @${owner}` });
  await expect(reviewThread).toContainText('ships on Tuesday');
  await expect(reviewThread).toContainText('Wednesday, surely?');
  // The reviewer sees it on the page too.
  await other.goto(`/spaces/${spaceId}/comments?path=index.html&review=1`);
  await expect(other.getByRole('listitem', { name: `Thread by @${owner}` })).toContainText('Wednesday, surely?');
  await reviewerContext.close();

  // The owner blocks the reviewer from the author menu of their reply: it folds away.
  await page.goto(`/spaces/${spaceId}/comments?path=README.md`);
  await page.getByLabel('Thread status').selectOption('all');
  const folded = page.getByRole('listitem', { name: `Thread by @${owner}` }).filter({ hasText: 'brown fox' });
  await folded.getByText(`@${reviewer}`, { exact: true }).click();
  await folded.getByRole('button', { name: `Block @${reviewer}` }).click();
  await expect(folded).toContainText('Comment from someone you blocked.');
  await expect(folded).not.toContainText('Yes, I saw it myself.');
  await page.reload();
  await page.getByLabel('Thread status').selectOption('all');
  await expect(folded).toContainText('Comment from someone you blocked.');
});

test("the comments tab shows a file as the files tab does: markdown images load, and long lines scroll inside the page's width", async ({ page, request }) => {
  const handle = `wide-${randomBytes(3).toString('hex')}`;
  const ownerToken = await token(request, handle);
  const space = await (await request.post('/v1/spaces', { headers: { authorization: `Bearer ${ownerToken}` }, data: { workspace: handle, name: 'Wide files' } })).json();
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="teal"/></svg>';
  await push(request, ownerToken, space.id, { 'notes.md': '# Notes\n\n![diagram](img/diagram.svg)\n', 'img/diagram.svg': svg, 'long.ts': `export const line = '${'x'.repeat(600)}';\n` }, 'files');
  await signIn(page, handle);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/spaces/${space.id}/comments?path=notes.md`);
    await expect.poll(() => page.getByRole('img', { name: 'diagram' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);
    await page.goto(`/spaces/${space.id}/comments?path=long.ts`);
    await expect(page.getByText("export const line")).toBeVisible();
    // Numbered lines, drawn so that a selection to quote never holds the numbers.
    const firstLine = page.getByRole('region', { name: 'File long.ts' }).locator('.line').first();
    expect(await firstLine.evaluate((line) => getComputedStyle(line, '::before').content)).toBe('counter(line)');
    expect(await firstLine.evaluate((line) => line.textContent?.startsWith('export'))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
});
