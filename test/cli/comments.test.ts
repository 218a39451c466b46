// `atrium comments …` run as a user runs it, against a real server.
import { describe, expect, it } from 'vitest';
import { signIn } from '../helpers.ts';
import { useFrontServer } from '../server.ts';
import { cliAgainst, cliTimeout } from './run-cli.ts';
import { makeSpace, push } from '../spaces/fixtures.ts';

const server = useFrontServer();

const atrium = cliAgainst(server);

describe('atrium comments', () => {
  it('adds, lists, replies, edits, shows history, resolves, reopens and removes', { timeout: cliTimeout(11) }, async () => {
    const owner = await signIn('cli-commenter');
    const space = await makeSpace(owner.token, owner.user.handle);
    await push(owner.token, space.id, { 'guide.md': '# Guide\n\nInstall the tool first.\n' });
    const s = ['--space', space.id];

    const created = JSON.parse(await atrium(owner.token, 'comments', 'add', 'guide.md', 'Which tool?', '--quote', 'Install the tool', ...s, '--json'));
    expect(created).toMatchObject({ path: 'guide.md', quote: 'Install the tool', via: 'cli' });
    expect(await atrium(owner.token, 'comments', 'reply', created.id, 'The CLI.', ...s)).toMatch(/^Replied with cmt_/);
    expect(await atrium(owner.token, 'comments', 'edit', created.id, 'Which tool, exactly?')).toMatch(/Edited comment/);
    const history = JSON.parse(await atrium(owner.token, 'comments', 'history', created.id, '--json'));
    expect(history.map((r: { body: string }) => r.body)).toEqual(['Which tool?']);

    const listed = await atrium(owner.token, 'comments', 'list', '--path', 'guide.md', ...s);
    expect(listed).toContain('Which tool, exactly?');
    expect(listed).toContain('The CLI.');

    await atrium(owner.token, 'comments', 'resolve', created.id);
    expect(JSON.parse(await atrium(owner.token, 'comments', ...s, '--json'))).toEqual([]);
    const resolved = JSON.parse(await atrium(owner.token, 'comments', 'list', '--status', 'resolved', ...s, '--json'));
    expect(resolved.map((t: { id: string }) => t.id)).toEqual([created.id]);
    await atrium(owner.token, 'comments', 'reopen', created.id);
    await atrium(owner.token, 'comments', 'rm', created.id);
    expect(JSON.parse(await atrium(owner.token, 'comments', 'list', '--status', 'all', ...s, '--json'))).toEqual([]);
  });
});
