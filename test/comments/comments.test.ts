// Comments through the real routes: threads and replies, anchors that follow
// their text across versions, resolution, edits with revisions, deletion,
// who may do each, guests, limits, mentions and the space head.
import { describe, expect, it } from 'vitest';
import { DELETE as deleteMeRoute } from '@/app/v1/me/route.ts';
import { PUT as putAliasRoute } from '@/app/v1/spaces/[id]/aliases/[name]/route.ts';
import { POST as unlockRoute } from '@/app/v1/spaces/[id]/unlock/route.ts';
import { db } from '@/lib/db/client.ts';
import { PEER_HEADER } from '@/lib/core/client.ts';
import { COMMENT_LIMITS } from '@/lib/schemas/comments.ts';
import { GUEST_COMMENTS_PER_WINDOW } from '@/lib/comments/comments.ts';
import { call, signIn, useSmtpServer } from '../helpers.ts';
import { makeSpace, push } from '../spaces/fixtures.ts';
import { comments, guestKey, member, patchSpace } from './fixtures.ts';

const GUIDE = '# Guide\n\nInstall the tool first. Then run the setup command and follow its prompts.\n\nThe end.\n';

async function world(prefix: string, options: { visibility?: 'public' | 'members'; guestComments?: boolean } = {}) {
  const owner = await signIn(`${prefix}-owner`, 'cli', 'Olive Owner');
  const space = await makeSpace(owner.token, owner.user.handle, { visibility: options.visibility ?? 'members' });
  await push(owner.token, space.id, { 'guide.md': GUIDE, 'logo.png': new Uint8Array([137, 80, 78, 71, 0, 1, 2]) });
  if (options.guestComments) await patchSpace(owner.token, space.id, { guestComments: true });
  // Seats are not what these tests are about.
  await db.workspace.update({ where: { slug: owner.user.handle }, data: { plan: 'enterprise' } });
  const pusher = await member(owner.token, owner.user.handle, `${prefix}-pusher`, 'member');
  const viewer = await member(owner.token, owner.user.handle, `${prefix}-viewer`, 'viewer');
  const viewer2 = await member(owner.token, owner.user.handle, `${prefix}-viewer2`, 'viewer');
  const outsider = await signIn(`${prefix}-outsider`);
  return { owner, space, pusher, viewer, viewer2, outsider };
}

describe('threads and replies', () => {
  it('opens a thread on a quote of a file, places it in the text, and lists it with its replies', async () => {
    const { space, viewer, pusher } = await world('th');
    const created = await comments.create(space.id, { path: 'guide.md', body: 'Which tool?', quote: 'Install the tool' }, { token: viewer.token });
    expect(created.status).toBe(200);
    const root = created.json;
    expect(root).toMatchObject({ path: 'guide.md', versionNumber: 1, parentId: null, quote: 'Install the tool', via: 'cli', resolvedAt: null, revisions: 0 });
    expect(root.author).toEqual({ kind: 'user', id: viewer.user.id, handle: viewer.user.handle, name: viewer.user.handle });
    const start = GUIDE.indexOf('Install the tool');
    expect(root.anchor).toMatchObject({ exact: 'Install the tool', start, end: start + 16, prefix: GUIDE.slice(0, start), status: 'anchored', versionNumber: 1 });

    const reply = await comments.create(space.id, { path: 'guide.md', body: 'The CLI.', parentId: root.id }, { token: pusher.token });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ parentId: root.id, anchor: null, quote: null, versionNumber: 1 });
    // A reply to a reply joins the thread's root, as on GitHub.
    const nested = await comments.create(space.id, { path: 'guide.md', body: 'Thanks', parentId: reply.json.id }, { token: viewer.token });
    expect(nested.json.parentId).toBe(root.id);

    const listed = await comments.list(space.id, { path: 'guide.md' }, { token: viewer.token });
    expect(listed.status).toBe(200);
    expect(listed.json.threads).toHaveLength(1);
    expect(listed.json.threads[0].id).toBe(root.id);
    expect(listed.json.threads[0].replies.map((r: { body: string }) => r.body)).toEqual(['The CLI.', 'Thanks']);
    expect((await comments.list(space.id, { path: 'other.md' }, { token: viewer.token })).json.threads).toEqual([]);
  });

  it('takes a comment on a whole file without a quote, also on a binary file, but no quote of a binary file', async () => {
    const { space, viewer } = await world('wf');
    expect((await comments.create(space.id, { path: 'logo.png', body: 'Nice logo' }, { token: viewer.token })).json.anchor).toBeNull();
    const quoted = await comments.create(space.id, { path: 'logo.png', body: 'x', quote: 'PNG' }, { token: viewer.token });
    expect(quoted.status).toBe(400);
    expect(quoted.json.error.message).toMatch(/^body\.quote: .*not a text file/);
  });

  it('refuses bad fields with 400 naming them', async () => {
    const { space, viewer } = await world('bad');
    const as = { token: viewer.token };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ path: 'guide.md', body: 'x'.repeat(COMMENT_LIMITS.body + 1) }, /^body\.body: /],
      [{ path: 'guide.md', body: '   ' }, /^body\.body: /],
      [{ path: 'guide.md', body: 'x', quote: 'q'.repeat(COMMENT_LIMITS.quote + 1) }, /^body\.quote: /],
      [{ path: 'guide.md', body: 'x', quote: 'not in this file at all, nowhere' }, /^body\.quote: the quoted text is not in guide\.md/],
      [{ path: 'missing.md', body: 'x' }, /^body\.path: no file missing\.md in version 1/],
      [{ path: 'guide.md', body: 'x', versionNumber: 2 }, /^body\.versionNumber: /],
      [{ path: 'guide.md', body: 'x', parentId: 'cmt_nope' }, /^body\.parentId: /],
      [{ path: 'guide.md', body: 'x', anchor: { exact: 'Guide', prefix: 'p'.repeat(COMMENT_LIMITS.context + 1) } }, /^body\.anchor\.prefix: /],
      [{ path: 'guide.md', body: 'x', guest: { name: 'Gail', key: guestKey() } }, /^body\.guest: /],
    ];
    for (const [body, message] of cases) {
      const answer = await comments.create(space.id, body, as);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.json.error.message).toMatch(message);
    }
    const root = (await comments.create(space.id, { path: 'guide.md', body: 'root', quote: 'Guide' }, as)).json;
    const anchoredReply = await comments.create(space.id, { path: 'guide.md', body: 'x', parentId: root.id, quote: 'Guide' }, as);
    expect(anchoredReply.json.error.message).toMatch(/^body\.anchor: replies are not anchored/);
    expect((await comments.create(space.id, { path: 'logo.png', body: 'x', parentId: root.id }, as)).json.error.message).toMatch(/^body\.path: /);
    expect((await comments.list(space.id, { status: 'closed' }, as)).status).toBe(400);
  });

  it('filters threads by status: open by default, resolved, all', async () => {
    const { space, viewer } = await world('st');
    const as = { token: viewer.token };
    const a = (await comments.create(space.id, { path: 'guide.md', body: 'open one' }, as)).json;
    const b = (await comments.create(space.id, { path: 'guide.md', body: 'resolved one' }, as)).json;
    expect((await comments.resolve(b.id, as)).status).toBe(200);
    const ids = async (query: Record<string, string>) => (await comments.list(space.id, query, as)).json.threads.map((t: { id: string }) => t.id);
    expect(await ids({})).toEqual([a.id]);
    expect(await ids({ status: 'open' })).toEqual([a.id]);
    expect(await ids({ status: 'resolved' })).toEqual([b.id]);
    expect(await ids({ status: 'all' })).toEqual([a.id, b.id]);
  });
});

describe('through an alias', () => {
  it('records the alias a commenter came through, places a new thread on its version, and refuses an unknown one', async () => {
    const { owner, space, viewer } = await world('al');
    await push(owner.token, space.id, { 'guide.md': GUIDE.replace('The end.', 'Fin.'), 'logo.png': new Uint8Array([1]) });
    const pointed = await call(putAliasRoute, 'PUT', `/v1/spaces/${space.id}/aliases/pr-7`, { token: owner.token, params: { id: space.id, name: 'pr-7' }, body: { version: 1 } });
    expect(pointed.status).toBe(200);

    const root = await comments.create(space.id, { path: 'guide.md', body: 'On the preview', quote: 'The end.', alias: 'pr-7' }, { token: viewer.token });
    expect(root.status).toBe(200);
    expect(root.json).toMatchObject({ alias: 'pr-7', versionNumber: 1, anchor: { status: 'anchored', versionNumber: 1 } });
    const reply = await comments.create(space.id, { path: 'guide.md', body: 'Seen', parentId: root.json.id, alias: 'pr-7' }, { token: owner.token });
    expect(reply.json).toMatchObject({ alias: 'pr-7', versionNumber: 1 });
    const plain = await comments.create(space.id, { path: 'guide.md', body: 'On the site' }, { token: viewer.token });
    expect(plain.json).toMatchObject({ alias: null, versionNumber: 2 });
    const listed = await comments.list(space.id, { path: 'guide.md', status: 'all' }, { token: viewer.token });
    expect(listed.json.threads.map((t: { alias: string | null }) => t.alias).sort()).toEqual([null, 'pr-7']);

    const unknown = await comments.create(space.id, { path: 'guide.md', body: 'x', alias: 'pr-8' }, { token: viewer.token });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.message).toBe('body.alias: no alias "pr-8" in this space.');
    const mismatch = await comments.create(space.id, { path: 'guide.md', body: 'x', alias: 'pr-7', versionNumber: 2 }, { token: viewer.token });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.error.message).toBe('body.versionNumber: the alias "pr-7" serves version 1.');
    expect((await comments.create(space.id, { path: 'guide.md', body: 'x', alias: 'Not An Alias' }, { token: viewer.token })).status).toBe(400);
  });
});

describe('anchors across versions', () => {
  it('follows moved text, survives edited surroundings, and says when the text is gone', async () => {
    const { owner, space, viewer } = await world('anc');
    const quote = 'Then run the setup command';
    const thread = (await comments.create(space.id, { path: 'guide.md', body: 'Which command?', quote }, { token: viewer.token })).json;
    const anchorIn = async (v?: number) =>
      (await comments.list(space.id, v ? { v: String(v) } : {}, { token: viewer.token })).json.threads.find((t: { id: string }) => t.id === thread.id).anchor;

    // Version 2: a new section above moves the text down.
    const moved = `# Guide\n\n## Before you start\n\nCheck your network.\n\nInstall the tool first. Then run the setup command and follow its prompts.\n\nThe end.\n`;
    await push(owner.token, space.id, { 'guide.md': moved });
    expect(await anchorIn()).toMatchObject({ status: 'anchored', versionNumber: 2, exact: quote, start: moved.indexOf(quote), end: moved.indexOf(quote) + quote.length });

    // Version 3: the words around it are rewritten and the quote itself gets a typo fixed.
    const edited = `# Guide\n\n## Before you start\n\nCheck your network.\n\nFirst install the tool. Then run the setup commands and answer the questions.\n\nThe end.\n`;
    await push(owner.token, space.id, { 'guide.md': edited });
    const fuzzy = await anchorIn();
    expect(fuzzy.status).toBe('anchored');
    expect(fuzzy.versionNumber).toBe(3);
    expect(edited.slice(fuzzy.start, fuzzy.end)).toMatch(/^Then run the setup command/);

    // Version 4: the sentence is deleted.
    const deleted = `# Guide\n\n## Before you start\n\nCheck your network.\n\nThe end.\n`;
    await push(owner.token, space.id, { 'guide.md': deleted });
    const orphan = await anchorIn();
    expect(orphan).toMatchObject({ status: 'orphaned', exact: quote, versionNumber: 1, start: GUIDE.indexOf(quote) });

    // Shown in an older version, it is where it was.
    expect(await anchorIn(2)).toMatchObject({ status: 'anchored', versionNumber: 2, start: moved.indexOf(quote) });
    expect((await comments.list(space.id, { v: '9' }, { token: viewer.token })).status).toBe(400);
  });

  it('places a selection from a rendered page in the source, with its markup', async () => {
    const { owner, space, viewer } = await world('rend');
    const source = '# Notes\n\nThe **quick** brown fox jumps over the lazy dog.\n';
    await push(owner.token, space.id, { 'notes.md': source });
    const created = await comments.create(space.id, { path: 'notes.md', body: 'Which fox?', quote: 'The quick brown fox', anchor: { exact: 'The quick brown fox', suffix: ' jumps' } }, { token: viewer.token });
    expect(created.status).toBe(200);
    expect(created.json.quote).toBe('The quick brown fox');
    expect(created.json.anchor.exact).toBe('The **quick** brown fox');
  });
});

describe('resolving', () => {
  it('lets the thread author and people who can push resolve and reopen, and nobody else (403)', async () => {
    const { space, viewer, viewer2, pusher, outsider } = await world('res');
    const root = (await comments.create(space.id, { path: 'guide.md', body: 'Hm', quote: 'The end.' }, { token: viewer.token })).json;
    const reply = (await comments.create(space.id, { path: 'guide.md', body: 'Yes', parentId: root.id }, { token: viewer2.token })).json;

    // A viewer who only replied is not the thread's author.
    const refused = await comments.resolve(root.id, { token: viewer2.token });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('forbidden');
    expect((await comments.resolve(reply.id, { token: viewer2.token })).status).toBe(403);
    expect((await comments.resolve(root.id, {})).status).toBe(404); // members-only space: anonymous cannot see it
    expect((await comments.resolve(root.id, { token: outsider.token })).status).toBe(404);

    const resolved = await comments.resolve(root.id, { token: viewer.token });
    expect(resolved.status).toBe(200);
    expect(resolved.json.resolvedAt).toBeGreaterThan(0);
    expect(resolved.json.resolvedBy).toMatchObject({ kind: 'user', id: viewer.user.id });
    expect(resolved.json.resolvedVia).toBe('cli');
    expect((await comments.unresolve(root.id, { token: viewer2.token })).status).toBe(403);

    const reopened = await comments.unresolve(root.id, { token: pusher.token });
    expect(reopened.status).toBe(200);
    expect(reopened.json).toMatchObject({ resolvedAt: null, resolvedBy: null, resolvedVia: null });

    // Resolving through a reply resolves its thread.
    const viaReply = await comments.resolve(reply.id, { token: pusher.token });
    expect(viaReply.json).toMatchObject({ id: root.id, resolvedBy: { id: pusher.user.id } });
  });

  it('asks anonymous callers of a public space to sign in (401)', async () => {
    const { space, viewer } = await world('resanon', { visibility: 'public' });
    const root = (await comments.create(space.id, { path: 'guide.md', body: 'Hm' }, { token: viewer.token })).json;
    expect((await comments.resolve(root.id, {})).status).toBe(401);
    expect((await comments.unresolve(root.id, {})).status).toBe(401);
  });
});

describe('editing and revisions', () => {
  it('lets only the author edit, keeps each old text, and lists them oldest first', async () => {
    const { space, viewer, owner } = await world('ed');
    const root = (await comments.create(space.id, { path: 'guide.md', body: 'First text' }, { token: viewer.token })).json;
    expect((await comments.revisions(root.id, { token: viewer.token })).json).toEqual({ revisions: [] });

    // Not even the owner may put words in someone's mouth.
    const refused = await comments.edit(root.id, { body: 'Owner text' }, { token: owner.token });
    expect(refused.status).toBe(403);

    const web = await signIn(viewer.user.handle, 'web');
    const once = await comments.edit(root.id, { body: 'Second text' }, { token: web.token });
    expect(once.status).toBe(200);
    expect(once.json).toMatchObject({ body: 'Second text', revisions: 1, editedVia: 'web', editedBy: { kind: 'user', id: viewer.user.id } });
    expect(once.json.editedAt).toBeGreaterThanOrEqual(root.createdAt);
    const twice = await comments.edit(root.id, { body: 'Third text' }, { token: viewer.token });
    expect(twice.json).toMatchObject({ revisions: 2, editedVia: 'cli' });

    const { revisions } = (await comments.revisions(root.id, { token: owner.token })).json;
    expect(revisions.map((r: { body: string }) => r.body)).toEqual(['First text', 'Second text']);
    expect(revisions[0].writtenAt).toBe(root.createdAt);
    expect(revisions[1].writtenAt).toBe(once.json.editedAt);
    expect((await comments.revisions('cmt_unknown', { token: owner.token })).status).toBe(404);
    expect((await comments.edit(root.id, { body: '' }, { token: viewer.token })).json.error.message).toMatch(/^body\.body: /);
  });
});

describe('deleting', () => {
  it('lets the author or someone who can push delete; the replies go too', async () => {
    const { space, viewer, viewer2, pusher } = await world('del');
    const root = (await comments.create(space.id, { path: 'guide.md', body: 'Root' }, { token: viewer.token })).json;
    const reply = (await comments.create(space.id, { path: 'guide.md', body: 'Reply', parentId: root.id }, { token: viewer2.token })).json;
    expect((await comments.remove(root.id, undefined, { token: viewer2.token })).status).toBe(403);
    expect((await comments.remove(reply.id, undefined, { token: viewer2.token })).status).toBe(204);
    const reply2 = (await comments.create(space.id, { path: 'guide.md', body: 'Reply 2', parentId: root.id }, { token: viewer2.token })).json;
    expect((await comments.remove(root.id, undefined, { token: pusher.token })).status).toBe(204);
    expect((await comments.revisions(reply2.id, { token: viewer.token })).status).toBe(404);
    expect(await db.comment.count({ where: { spaceId: space.id } })).toBe(0);
    const mine = (await comments.create(space.id, { path: 'guide.md', body: 'Mine' }, { token: viewer.token })).json;
    expect((await comments.remove(mine.id, undefined, { token: viewer.token })).status).toBe(204);
    expect((await comments.remove(mine.id, undefined, { token: viewer.token })).status).toBe(404);
  });
});

describe('who may comment', () => {
  it('needs the comment capability: workspace viewers may, outsiders of a members-only space see nothing (404)', async () => {
    const { space, viewer, outsider } = await world('who');
    expect((await comments.create(space.id, { path: 'guide.md', body: 'ok' }, { token: viewer.token })).status).toBe(200);
    expect((await comments.create(space.id, { path: 'guide.md', body: 'no' }, { token: outsider.token })).status).toBe(404);
    expect((await comments.list(space.id, {}, { token: outsider.token })).status).toBe(404);
    expect((await comments.create(space.id, { path: 'guide.md', body: 'no', guest: { name: 'Gail', key: guestKey() } })).status).toBe(404);
  });

  it('refuses signed-in outsiders of a public space without guest comments (403)', async () => {
    const { space, outsider } = await world('pub', { visibility: 'public' });
    expect((await comments.list(space.id, {}, { token: outsider.token })).status).toBe(200);
    expect((await comments.create(space.id, { path: 'guide.md', body: 'no' }, { token: outsider.token })).status).toBe(403);
  });

  it('asks outsiders of a password-protected space for its unlock token', async () => {
    const { owner, space } = await world('pw', { visibility: 'public', guestComments: true });
    await patchSpace(owner.token, space.id, { password: 'let me in' });
    const guest = { name: 'Gail', key: guestKey() };
    const locked = await comments.create(space.id, { path: 'guide.md', body: 'hi', guest });
    expect(locked.status).toBe(401);
    const unlock = await call(unlockRoute, 'POST', `/v1/spaces/${space.id}/unlock`, { body: { password: 'let me in' }, params: { id: space.id } });
    const headers = { 'x-space-token': unlock.json.token };
    expect((await comments.create(space.id, { path: 'guide.md', body: 'hi', guest }, { headers })).status).toBe(200);
    expect((await comments.list(space.id, {}, { headers })).json.threads).toHaveLength(1);
  });

  it('shows the author of a deleted account as "Deleted user"', async () => {
    const { space, owner } = await world('gone');
    const leaver = await member(owner.token, owner.user.handle, 'gone-leaver', 'member');
    const root = (await comments.create(space.id, { path: 'guide.md', body: 'bye' }, { token: leaver.token })).json;
    await comments.resolve(root.id, { token: leaver.token });
    expect((await call(deleteMeRoute, 'DELETE', '/v1/me', { token: leaver.token })).status).toBe(204);
    const [thread] = (await comments.list(space.id, { status: 'all' }, { token: owner.token })).json.threads;
    expect(thread.author).toEqual({ kind: 'deleted', id: null, handle: null, name: 'Deleted user' });
    expect(thread.resolvedBy).toEqual({ kind: 'deleted', id: null, handle: null, name: 'Deleted user' });
    expect(thread.body).toBe('bye');
  });
});

describe('guests', () => {
  it('refuses guests while guest comments are off (401), and takes them once on', async () => {
    const { owner, space } = await world('g1', { visibility: 'public' });
    const guest = { name: 'Gail', key: guestKey() };
    const refused = await comments.create(space.id, { path: 'guide.md', body: 'hello', guest });
    expect(refused.status).toBe(401);
    await patchSpace(owner.token, space.id, { guestComments: true });
    const created = await comments.create(space.id, { path: 'guide.md', body: 'hello', quote: 'The end.', guest }, { headers: { [PEER_HEADER]: '198.51.100.9', 'user-agent': 'Firefox/200' } });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ author: { kind: 'guest', id: null, handle: null, name: 'Gail' }, guestName: 'Gail', via: 'guest', origin: { country: null, userAgent: 'Firefox/200' } });
    // Neither the key nor the address is stored.
    const row = await db.comment.findUniqueOrThrow({ where: { id: created.json.id } });
    expect(JSON.stringify(row)).not.toContain(guest.key);
    expect(JSON.stringify(row)).not.toContain('198.51.100.9');
    expect(row.guestKeyHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await comments.create(space.id, { path: 'guide.md', body: 'hello' })).json.error.message).toMatch(/^body\.guest: /);
  });

  it('refuses guest names that pass for a handle or "Deleted user" through invisible, spacing or look-alike characters, and stores names cleaned', async () => {
    const { owner, space } = await world('g9', { visibility: 'public', guestComments: true });
    const as = (name: string) => comments.create(space.id, { path: 'guide.md', body: 'hi', guest: { name, key: guestKey() } });
    const handle = owner.user.handle;
    // Fullwidth forms of ASCII are U+FF01…U+FF5E.
    const fullwidth = [...handle].map((c) => String.fromCodePoint(c.charCodeAt(0) + 0xfee0)).join('');
    const impostors = [
      `${handle.slice(0, 2)}\u200b${handle.slice(2)}`, // zero-width space
      `\u2060${handle}\u00ad`, // word joiner, soft hyphen
      handle.toUpperCase(),
      `\uff20${handle}`, // fullwidth @
      handle.replace(/o/g, '\u043e').replace(/e/g, '\u0435'), // Cyrillic o, e
      fullwidth,
      handle.replace('-', ' '),
      'Deleted\u00a0user',
      'Deleted\u200b user',
      'DELETED   USER',
      'D\u0435l\u0435t\u0435d us\u0435r', // Cyrillic e
    ];
    for (const name of impostors) {
      const answer = await as(name);
      expect(answer.status, JSON.stringify(name)).toBe(400);
      expect(answer.json.error.message, JSON.stringify(name)).toMatch(/^body\.guest\.name: /);
    }
    expect((await as('\u200b\u200d')).status).toBe(400);
    const kept = await as('  Zoë\u200b  Ng\u00a0 ');
    expect(kept.status).toBe(200);
    expect(kept.json.guestName).toBe('Zoë Ng');
  });

  it('lets the same key edit and delete, refuses a wrong or missing key, and never lets a guest resolve', async () => {
    const { space } = await world('g2', { visibility: 'public', guestComments: true });
    const guest = { name: 'Gail', key: guestKey() };
    const c = (await comments.create(space.id, { path: 'guide.md', body: 'v1', guest })).json;
    expect((await comments.edit(c.id, { body: 'v2', guest: { key: guestKey() } })).status).toBe(403);
    expect((await comments.edit(c.id, { body: 'v2' })).status).toBe(403);
    const edited = await comments.edit(c.id, { body: 'v2', guest: { key: guest.key } });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ body: 'v2', revisions: 1, editedVia: 'guest', editedBy: { kind: 'guest', name: 'Gail' } });
    expect((await comments.resolve(c.id)).status).toBe(401);
    expect((await comments.remove(c.id, { guest: { key: guestKey() } })).status).toBe(403);
    expect((await comments.remove(c.id, undefined)).status).toBe(401);
    expect((await comments.remove(c.id, { guest: { key: guest.key } })).status).toBe(204);
  });

  it('keeps guests from passing for members: no handles, no "@", keys of at least 128 bits', async () => {
    const { space, viewer } = await world('g3', { visibility: 'public', guestComments: true });
    const key = guestKey();
    for (const name of [viewer.user.handle, viewer.user.handle.toUpperCase(), `@${viewer.user.handle}`, '@someone', 'Deleted user']) {
      const answer = await comments.create(space.id, { path: 'guide.md', body: 'hi', guest: { name, key } });
      expect(answer.status, name).toBe(400);
      expect(answer.json.error.message).toMatch(/^body\.guest\.name: /);
    }
    expect((await comments.create(space.id, { path: 'guide.md', body: 'hi', guest: { name: 'Gail', key: 'short' } })).json.error.message).toMatch(/^body\.guest\.key: /);
    expect((await comments.create(space.id, { path: 'guide.md', body: 'hi', guest: { key } })).json.error.message).toMatch(/^body\.guest\.name: /);
  });

  it(`limits guests to ${GUEST_COMMENTS_PER_WINDOW} comments per address per 10 minutes (429 with Retry-After)`, async () => {
    const { space, viewer } = await world('g4', { visibility: 'public', guestComments: true });
    const guest = { name: 'Gail', key: guestKey() };
    const from = (address: string) => ({ headers: { [PEER_HEADER]: address } });
    const answers = await Promise.all(Array.from({ length: GUEST_COMMENTS_PER_WINDOW + 5 }, (_, i) => comments.create(space.id, { path: 'guide.md', body: `#${i}`, guest }, from('203.0.113.5'))));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(GUEST_COMMENTS_PER_WINDOW);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(5);
    expect(limited[0].json.error.code).toBe('rate_limited');
    const retry = Number(limited[0].headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(600);
    expect((await comments.create(space.id, { path: 'guide.md', body: 'other', guest }, from('203.0.113.6'))).status).toBe(200);
    // Members are not counted.
    expect((await comments.create(space.id, { path: 'guide.md', body: 'member' }, { token: viewer.token, ...from('203.0.113.5') })).status).toBe(200);
  });
});

describe('the space head', () => {
  it('moves commentsUpdatedAt on every create, edit, resolve, unresolve and delete', async () => {
    const { space, viewer } = await world('head');
    const as = { token: viewer.token };
    let last = (await comments.head(space.id, as)).commentsUpdatedAt;
    const moved = async () => {
      const now = (await comments.head(space.id, as)).commentsUpdatedAt;
      const did = now > last;
      last = now;
      return did;
    };
    const tick = () => new Promise((r) => setTimeout(r, 5));
    await tick();
    const c = (await comments.create(space.id, { path: 'guide.md', body: 'a' }, as)).json;
    expect(await moved()).toBe(true);
    await tick();
    await comments.edit(c.id, { body: 'b' }, as);
    expect(await moved()).toBe(true);
    await tick();
    await comments.resolve(c.id, as);
    expect(await moved()).toBe(true);
    await tick();
    await comments.unresolve(c.id, as);
    expect(await moved()).toBe(true);
    await tick();
    await comments.remove(c.id, undefined, as);
    expect(await moved()).toBe(true);
  });
});

describe('mentions', () => {
  const smtp = useSmtpServer();

  it('mails each @mentioned person who can see the space, once, never the author, nobody for guests', async () => {
    const { owner, space, viewer, pusher, outsider } = await world('men');
    for (const person of [viewer, pusher, outsider, owner]) await db.user.update({ where: { id: person.user.id }, data: { email: `${person.user.handle}@example.com` } });
    const body = `@${pusher.user.handle} and @${outsider.user.handle}, see this. Also @${viewer.user.handle} and again @${pusher.user.handle}. mail@${owner.user.handle}.com`;
    expect((await comments.create(space.id, { path: 'guide.md', body }, { token: viewer.token })).status).toBe(200);
    expect((await smtp.sent()).map((m) => m.to)).toEqual([[`<${pusher.user.handle}@example.com>`]]);
    expect((await smtp.sent())[0].data).toContain('mentioned you');

    // Edits do not mail again; guests mention nobody.
    await patchSpace(owner.token, space.id, { visibility: 'public', guestComments: true });
    await comments.create(space.id, { path: 'guide.md', body: `@${owner.user.handle} look`, guest: { name: 'Gail', key: guestKey() } });
    expect(await smtp.sent()).toHaveLength(1);
  });
});
