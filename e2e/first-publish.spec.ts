// A new person's first publish, as the dashboard shows it: each command of "Publish your
// first site" is copied from the page (its Copy button, then the clipboard) and run as
// printed by a shell in a folder holding ./site. The sign-in is approved on the device page
// in the same browser, and the published site then appears on the dashboard.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { Cli } from './cli.ts';
import { signIn } from './helpers.ts';

test("the dashboard's first-publish commands, copied from the page, publish ./site", async ({ page, context, baseURL }) => {
  test.setTimeout(180_000);
  const handle = `first-${randomBytes(3).toString('hex')}`;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, handle);

  // Every step of the guide, copied as a person would.
  const guide = page.getByRole('region', { name: 'Publish your first site' });
  const steps = guide.getByRole('listitem');
  await expect(steps).toHaveCount(4);
  const commands: string[] = [];
  for (const step of await steps.all()) {
    await step.getByRole('button', { name: /^Copy: / }).click();
    await expect(step.getByRole('button', { name: 'Copied' })).toBeVisible();
    commands.push(await page.evaluate(() => navigator.clipboard.readText()));
  }
  const [install, login, init, push] = commands;
  // Installing builds and installs the package globally; here, this checkout's CLI is `atrium` instead (Cli.shell).
  expect(install).toMatch(/^npm run pack:cli && npm install -g \.atrium\/atrium-cli-[\d.]+\.tgz$/);
  expect(login).toBe(`atrium login --server ${baseURL}`);

  const here = mkdtempSync(path.join(tmpdir(), 'atrium-first-publish-'));
  mkdirSync(path.join(here, 'site'));
  writeFileSync(path.join(here, 'site', 'index.html'), '<!doctype html><title>First</title><h1>My first site</h1>\n');
  const cli = new Cli(baseURL!);

  // The sign-in: the terminal names a page and a code; the person approves it there.
  const signingIn = cli.shell(login, here);
  const [, userCode] = await signingIn.waitFor(/one-time code: (\S+)/);
  const [, approveAt] = await signingIn.waitFor(/approve this sign-in at (\S+)/);
  await page.goto(approveAt);
  const card = page.getByRole('region', { name: 'Sign-in request' });
  await expect(card.getByLabel('Code')).toHaveText(userCode);
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('status')).toContainText('Approved');
  const loggedIn = await signingIn.done;
  expect(loggedIn.code, loggedIn.stderr).toBe(0);
  expect(loggedIn.stdout).toContain(`as @${handle}`);

  const linked = await cli.shell(init, here).done;
  expect(linked.code, linked.stderr).toBe(0);
  expect(linked.stdout).toContain('Publish it with `atrium push ./site`.');
  const { spaceId } = JSON.parse(readFileSync(path.join(here, 'site', '.atrium', 'space.json'), 'utf8'));

  const published = await cli.shell(push, here).done;
  expect(published.code, published.stderr).toBe(0);
  expect(published.stdout).toContain('version 1');

  // The dashboard now lists the space at version 1, and the guide has done its work.
  await page.goto('/');
  const spaces = page.getByRole('list', { name: 'Your spaces' });
  await expect(spaces.locator(`a[href="/spaces/${spaceId}"]`)).toBeVisible();
  await expect(spaces).toContainText('Version 1');
  await expect(guide).toHaveCount(0);
});
