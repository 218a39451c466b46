// Every page of the web app, and the pages a published site or generated app
// shows its visitors, at 1280 and 390 px in the light and the dark scheme:
// no serious or critical axe violation (contrast, names, roles). Each page is
// loaded once and checked in the four looks; every violation is collected and
// printed before the test fails, with the colours and ratio of a contrast
// failure. A page added under app/ without a place here fails the test, so the
// sweep stays a sweep. Screenshots: .atrium/test-results/e2e/axe-*.png.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { push } from './helpers.ts';

const LOOKS = [
  [1280, 'light'],
  [1280, 'dark'],
  [390, 'light'],
  [390, 'dark'],
] as const;

/** The web app's routes, as app/(web)/…/page.tsx spells them ('/spaces/[id]'). */
function webRoutes(dir = path.resolve(import.meta.dirname, '../app/(web)'), prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isFile()) return entry.name === 'page.tsx' ? [prefix || '/'] : [];
    // A route group, (name), is not part of the address.
    return entry.isDirectory() ? webRoutes(path.join(dir, entry.name), entry.name.startsWith('(') ? prefix : `${prefix}/${entry.name}`) : [];
  });
}

/** A call as the signed-in page (its session cookie): the JSON, after checking the status. */
async function api(page: Page, method: string, url: string, body?: unknown) {
  const { status, json } = await page.evaluate(
    async ([method, url, body]) => {
      const response = await fetch(url as string, { method: method as string, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.status, json: await response.json().catch(() => null) };
    },
    [method, url, body],
  );
  expect(status, `${method} ${url}: ${JSON.stringify(json)}`).toBeLessThan(300);
  return json;
}

const README = `# Handbook

Read [the guide](guide.md) first, then \`npm start\`.

- [x] Write the plan
- [ ] Ship it

| Who | What |
| --- | ---- |
| Ada | Code |

\`\`\`js
const answer = 42; // the answer
\`\`\`
`;

type Target = { route: string; url: string; page: Page; status?: number };

test('every page has no serious or critical axe violation at both widths, light and dark', async ({ page, browser, request }) => {
  // About 50 pages in four looks, each an axe run: 8-9 minutes on a 2-core machine; room for a slow one.
  test.setTimeout(1_500_000);
  const id = randomBytes(3).toString('hex');
  const handle = `sweep-${id}`;
  const team = `sweep-team-${id}`;
  await page.goto('/signin');
  await page.getByLabel('Handle').fill(handle);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: `Your account: @${handle}` })).toBeVisible({ timeout: 30_000 });
  const visitor = await (await browser.newContext()).newPage();

  // The data the pages show: a team with a webhook and an invite, spaces with
  // two versions, a password and a database, a room built into a live app, a
  // live space, invites to both, and a CLI sign-in waiting for approval.
  const { token } = await (await request.post('/v1/auth/dev-login', { data: { handle, label: 'cli' } })).json();
  const headers = { authorization: `Bearer ${token}` };
  await api(page, 'POST', '/v1/workspaces', { slug: team, name: 'Sweep team' });
  const workspaceInvite = await api(page, 'POST', `/v1/workspaces/${team}/invites`, {});
  await api(page, 'POST', `/v1/workspaces/${team}/webhooks`, { url: 'http://127.0.0.1:9/hook', events: ['version.committed'] });
  const space = await api(page, 'POST', '/v1/spaces', { workspace: team, name: 'Handbook', visibility: 'public' });
  const files = { 'README.md': README, 'guide.md': '# Guide\n', 'index.html': '<!doctype html><title>Handbook</title><h1>Handbook</h1>' };
  await push(request, token, space.id, files, 'First');
  await push(request, token, space.id, { ...files, 'guide.md': '# Guide\n\nStep one.\n' }, 'Second');
  await api(page, 'POST', `/v1/spaces/${space.id}/comments`, { path: 'README.md', body: 'Looks **good**.' });
  expect((await request.post(`/v1/spaces/${space.id}/db/query`, { headers, data: { sql: "CREATE TABLE pets (name TEXT); INSERT INTO pets VALUES ('Rex');", write: true } })).status()).toBe(200);
  const locked = await api(page, 'POST', '/v1/spaces', { workspace: team, name: 'Locked' });
  await push(request, token, locked.id, { 'index.html': '<h1>Secret</h1>' }, 'First');
  expect((await request.patch(`/v1/spaces/${locked.id}`, { headers, data: { password: 'open sesame' } })).status()).toBe(200);
  const room = await api(page, 'POST', '/v1/rooms', { workspace: team, name: 'Idea room', template: 'app' });
  const roomInvite = (await api(page, 'POST', `/v1/rooms/${room.id}/people`, { to: 'room-guest@example.com', role: 'editor' })).invite;
  const app = (await api(page, 'POST', `/v1/rooms/${room.id}/build`, {})).app;
  const live = await api(page, 'POST', `/v1/apps/${app.id}/live`, { access: 'public' });
  const liveSpace = await api(page, 'POST', '/v1/live-spaces', { workspace: team, name: 'Board' });
  const liveInvite = (await api(page, 'POST', `/v1/live-spaces/${liveSpace.id}/people`, { to: 'live-guest@example.com', role: 'editor' })).invite;
  const { userCode } = await (await request.post('/v1/auth/cli/start', { data: {} })).json();
  // A visit, so the visitors chart has a bar and its legend.
  await visitor.goto(space.url);

  const s = `/spaces/${space.id}`;
  const w = `/w/${team}`;
  const targets: Target[] = [
    { route: '/', url: '/', page },
    { route: '/device', url: `/device?code=${userCode}`, page },
    { route: '/invite/[token]', url: new URL(workspaceInvite.url).pathname, page: visitor },
    { route: '/live-space-invites/[token]', url: new URL(liveInvite.url).pathname, page: visitor },
    { route: '/live-spaces', url: '/live-spaces', page },
    { route: '/live-spaces/[id]', url: `/live-spaces/${liveSpace.id}`, page },
    { route: '/notifications', url: '/notifications', page },
    { route: '/protected/[id]', url: `/protected/${locked.id}`, page: visitor },
    { route: '/reference', url: '/reference', page },
    { route: '/room-invites/[token]', url: new URL(roomInvite.url).pathname, page: visitor },
    { route: '/rooms', url: '/rooms', page },
    { route: '/rooms/[id]', url: `/rooms/${room.id}`, page },
    { route: '/apps/[id]', url: `/apps/${app.id}`, page },
    { route: '/settings', url: '/settings', page },
    { route: '/settings/blocked', url: '/settings/blocked', page },
    { route: '/settings/delete', url: '/settings/delete', page },
    { route: '/settings/preferences', url: '/settings/preferences', page },
    { route: '/settings/tokens', url: '/settings/tokens', page },
    { route: '/signin', url: '/signin', page: visitor },
    { route: '/signin/check-email', url: '/signin/check-email', page: visitor },
    { route: '/signin/confirm', url: '/signin/confirm?email=ada%40example.com&token=t&callbackUrl=%2F', page: visitor },
    { route: '/signout', url: '/signout', page },
    { route: '/spaces', url: '/spaces', page },
    { route: '/spaces/[id]', url: s, page },
    { route: '/spaces/[id]', url: `${s}?path=README.md`, page },
    { route: '/spaces/[id]/comments', url: `${s}/comments?path=README.md`, page },
    { route: '/spaces/[id]/database', url: `${s}/database`, page },
    { route: '/spaces/[id]/history', url: `${s}/history`, page },
    { route: '/spaces/[id]/history/compare', url: `${s}/history/compare?base=1&head=2`, page },
    { route: '/spaces/[id]/settings', url: `${s}/settings`, page },
    { route: '/spaces/[id]/uploads', url: `${s}/uploads`, page },
    { route: '/spaces/[id]/visitors', url: `${s}/visitors`, page },
    { route: '/u/[handle]', url: `/u/${handle}`, page: visitor },
    { route: '/w/[slug]', url: w, page },
    { route: '/w/[slug]/apps', url: `${w}/apps`, page },
    { route: '/w/[slug]/audit', url: `${w}/audit`, page },
    { route: '/w/[slug]/billing', url: `${w}/billing`, page },
    { route: '/w/[slug]/invites', url: `${w}/invites`, page },
    { route: '/w/[slug]/settings', url: `${w}/settings`, page },
    { route: '/w/[slug]/spaces', url: `${w}/spaces`, page },
    { route: '/w/[slug]/webhooks', url: `${w}/webhooks`, page },
    { route: '/w/new', url: '/w/new', page },
    // Not pages of app/(web), but what people see: the app's 404, a site's
    // password prompt and missing page, and a generated app.
    { route: 'not found', url: '/no-such-page', page, status: 404 },
    { route: 'site password', url: locked.url, page: visitor, status: 401 },
    { route: 'site not found', url: new URL('no-such-file', space.url).href, page: visitor, status: 404 },
    { route: 'generated app', url: live.liveUrl, page: visitor },
  ];
  const covered = new Set(targets.map((t) => t.route));
  expect(webRoutes().filter((route) => !covered.has(route)), 'pages the sweep does not visit').toEqual([]);

  const found: string[] = [];
  for (const target of targets) {
    await test.step(target.url, async () => {
      const response = await target.page.goto(target.url);
      expect(response?.status(), target.url).toBe(target.status ?? 200);
      // Next streams a dynamic page's metadata after its body starts.
      await expect(target.page).toHaveTitle(/\S/);
      for (const [width, scheme] of LOOKS) {
        await target.page.setViewportSize({ width, height: 844 });
        await target.page.emulateMedia({ colorScheme: scheme });
        const name = `${target.route === '/' ? 'dashboard' : target.route.replace(/[^\w]+/g, '-').replace(/^-|-$/g, '')}-${width}-${scheme}`;
        await target.page.screenshot({ path: `.atrium/test-results/e2e/axe-${name}.png` });
        const { violations } = await new AxeBuilder({ page: target.page }).analyze();
        for (const v of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
          const nodes = v.nodes.map((n) => {
            const data = n.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
            const colours = data?.contrastRatio ? ` ${data.fgColor} on ${data.bgColor} ${data.contrastRatio}:1` : '';
            return `    ${n.target.join(' ')}${colours}`;
          });
          found.push(`${target.url} at ${width} ${scheme}: ${v.id} (${v.impact}) ${v.help}\n${nodes.join('\n')}`);
          // As found too: a run cut short still says what it saw.
          console.log(found.at(-1));
        }
      }
      await target.page.emulateMedia({ colorScheme: 'light' });
      await target.page.setViewportSize({ width: 1280, height: 844 });
    });
  }
  expect(found, `${found.length} serious or critical violations:\n${found.join('\n')}`).toEqual([]);
});
