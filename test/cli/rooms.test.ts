// `atrium rooms …` run as a user runs it, against a real server.
import { describe, expect, it } from 'vitest';
import { documentPages } from '@/lib/rooms/document.ts';
import { currentRoomState } from '@/lib/rooms/document-store.ts';
import { signIn } from '../helpers.ts';
import { useFrontServer } from '../server.ts';
import { cliAgainst, cliTimeout } from './run-cli.ts';

const server = useFrontServer();

const atrium = cliAgainst(server);

describe('atrium rooms', () => {
  it('creates, lists, shows, invites, exports, lists sources and deletes rooms and live spaces', { timeout: cliTimeout(14) }, async () => {
    const owner = await signIn('cli-room-owner');
    const guest = await signIn('cli-room-guest');
    const made = await fetch(`${server.origin}/v1/workspaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'cli-rooms', name: 'CLI rooms' }),
    });
    expect(made.ok).toBe(true);

    const room = JSON.parse(await atrium(owner.token, 'rooms', 'create', 'cli-rooms', '--name', 'Plans', '--template', 'brief', '--json'));
    expect(room).toMatchObject({ name: 'Plans', template: 'brief', role: 'owner', workspace: { slug: 'cli-rooms' } });
    expect(await atrium(owner.token, 'rooms', 'list')).toMatch(new RegExp(`${room.id}\\s+Plans\\s+cli-rooms\\s+owner`));
    expect(await atrium(owner.token, 'rooms', 'info', room.id)).toContain('your role   owner');

    expect(await atrium(owner.token, 'rooms', 'invite', room.id, '@cli-room-guest', '--role', 'commenter')).toBe('Added @cli-room-guest as commenter.\n');
    const invited = await atrium(owner.token, 'rooms', 'invite', room.id, 'someone@example.com', '--role', 'viewer');
    expect(invited).toMatch(/Invited someone@example.com as viewer/);
    expect(invited).toMatch(/Link \(shown once, for one use\): http/);
    const people = JSON.parse(await atrium(owner.token, 'rooms', 'people', room.id, '--json'));
    expect(people.members.map((m: { user: { handle: string }; role: string }) => `${m.user.handle}:${m.role}`).sort()).toEqual(['cli-room-guest:commenter', 'cli-room-owner:owner']);
    expect(people.invites.map((i: { email: string }) => i.email)).toEqual(['someone@example.com']);
    // The guest sees the room, as a commenter.
    expect(JSON.parse(await atrium(guest.token, 'rooms', 'info', room.id, '--json')).role).toBe('commenter');

    const markdown = await atrium(owner.token, 'rooms', 'markdown', room.id);
    expect(markdown).toMatch(/^# Plans\n\n## Brief\n\n# Project brief/);
    expect(markdown).toContain('## Open questions');
    expect(await atrium(owner.token, 'rooms', 'sources', room.id)).toBe('No sources.\n');

    // Live spaces are the same commands with --live, and a separate list.
    const live = JSON.parse(await atrium(owner.token, 'rooms', '--live', 'create', 'cli-rooms', '--name', 'Board', '--json'));
    expect(live.aiSuggest).toBeUndefined();
    expect(JSON.parse(await atrium(owner.token, 'rooms', '--live', 'list', '--json')).map((r: { id: string }) => r.id)).toEqual([live.id]);
    expect(JSON.parse(await atrium(owner.token, 'rooms', 'list', '--json')).map((r: { id: string }) => r.id)).toEqual([room.id]);

    expect(await atrium(owner.token, 'rooms', 'rm', room.id)).toMatch(/^Deleted room/);
    expect(await atrium(owner.token, 'rooms', 'list', '--workspace', 'cli-rooms')).toBe('No rooms in cli-rooms.\n');
    // A commenter cannot delete a live space: the server's refusal is the exit status.
    await expect(atrium(guest.token, 'rooms', '--live', 'rm', live.id)).rejects.toMatchObject({ code: 1 });
  });

  it('lists, compares and restores the history of a page', { timeout: cliTimeout(8) }, async () => {
    const owner = await signIn('cli-history-owner');
    const made = await fetch(`${server.origin}/v1/workspaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'cli-history', name: 'CLI history' }),
    });
    expect(made.ok).toBe(true);
    const room = JSON.parse(await atrium(owner.token, 'rooms', 'create', 'cli-history', '--template', 'notes', '--json'));
    const page = documentPages(await currentRoomState(room.id))[0].id;

    expect(await atrium(owner.token, 'rooms', 'history', room.id, page)).toBe('No history for this page yet.\n');
    expect(await atrium(owner.token, 'rooms', 'history', room.id, page, '--name', 'Agenda first')).toMatch(/^Kept the page as "Agenda first" \(rps_/);
    const [kept] = JSON.parse(await atrium(owner.token, 'rooms', 'history', room.id, page, '--json'));
    expect(kept).toMatchObject({ reason: 'named', name: 'Agenda first', createdBy: { handle: 'cli-history-owner' } });
    expect(await atrium(owner.token, 'rooms', 'history', room.id, page)).toMatch(new RegExp(`${kept.id}\\s+.+\\s+named\\s+Agenda first\\s+@cli-history-owner`));
    // Nothing changed since: the diff is the page, unchanged.
    const diff = await atrium(owner.token, 'rooms', 'history', room.id, page, '--diff', kept.id);
    expect(diff).toMatch(/\(0 added, 0 removed\)/);
    expect(diff).toContain('  # Meeting notes');

    const restored = await atrium(owner.token, 'rooms', 'restore', room.id, page, kept.id);
    expect(restored).toMatch(/^Restored the page to "Agenda first"/);
    expect(restored).toMatch(new RegExp(`To undo: atrium rooms restore ${room.id} ${page} rps_`));
    // Usage errors exit 2 before any request; an unknown snapshot is the server's 404 (exit 1).
    await expect(atrium(owner.token, 'rooms', 'history', room.id, page, '--to', kept.id)).rejects.toMatchObject({ code: 2 });
    await expect(atrium(owner.token, 'rooms', 'restore', room.id, page, 'rps_nothing')).rejects.toMatchObject({ code: 1 });
  });
});
