// Rooms and live spaces: list, create, show, delete, people and invites, the
// document as Markdown, the attached sources and each page's history. `--live` works on live spaces
// instead of rooms (the same commands, under /v1/live-spaces). Editing the
// document and chatting happen in the web app, over the room's socket.
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { liveSpacesApi, roomsApi, type PageSnapshot, type RoomMember } from '../../lib/schemas/rooms.ts';
import { globalOptions, signedInClient } from '../context.ts';
import { CliError, EXIT, formatTime, printJson, printTable, say } from '../output.ts';

const TEMPLATES = ['blank', 'notes', 'brief', 'retro', 'app'];
const INVITE_ROLES = ['editor', 'commenter', 'viewer'] as const;

type Live = { live?: boolean };

/** The endpoint set: both have the same shape for everything here but `list`. */
function endpoints(command: Command) {
  const live = Boolean((command.optsWithGlobals() as Live).live);
  return { live, api: live ? (liveSpacesApi as unknown as typeof roomsApi) : roomsApi, noun: live ? 'live space' : 'room' };
}

async function list(this: Command, options: { workspace?: string }) {
  const { live, api, noun } = endpoints(this);
  const answer = (await (await signedInClient(this)).call(api.list, { query: { workspace: options.workspace } })) as { rooms?: unknown[]; liveSpaces?: unknown[] };
  const rooms = (live ? answer.liveSpaces : answer.rooms) as Awaited<ReturnType<typeof info>>[];
  if (globalOptions(this).json) return printJson(rooms);
  if (rooms.length === 0) return say(`No ${noun}s${options.workspace ? ` in ${options.workspace}` : ''}.`);
  printTable(
    rooms.map((r) => ({ id: r.id, name: r.name, workspace: r.workspace.slug, role: r.role, activity: r.lastActivity ? `${r.lastActivity}, ${formatTime(r.lastActivityAt)}` : formatTime(r.createdAt) })),
    ['id', 'name', 'workspace', 'role', 'activity'],
  );
}

async function info(this: Command, id: string) {
  const { api } = endpoints(this);
  return (await signedInClient(this)).call(api.get, { params: { id } });
}

async function show(this: Command, id: string) {
  const room = await info.call(this, id);
  if (globalOptions(this).json) return printJson(room);
  say(`${room.icon ? `${room.icon} ` : ''}${room.name}  (${room.id})`);
  if (room.description) say(room.description);
  say(`workspace   ${room.workspace.name} (/${room.workspace.slug})`);
  say(`your role   ${room.role}`);
  say(`link        ${room.linkAccess === 'none' ? 'no access by link' : `anyone signed in with the link joins as ${room.linkAccess}`}`);
  say(`template    ${room.template ?? 'none'}`);
  say(`stored      ${room.latestVersion} times${room.lastActivity ? `; last: ${room.lastActivity}, ${formatTime(room.lastActivityAt)}` : ''}`);
  say(`created     ${formatTime(room.createdAt)}`);
  say(`open        ${room.url}`);
}

async function create(this: Command, workspace: string, options: { name?: string; template?: string; prompt?: string; invite?: string[]; role?: string }) {
  const { api, noun } = endpoints(this);
  if (options.template && !TEMPLATES.includes(options.template)) throw new CliError(`--template must be one of ${TEMPLATES.join(', ')}.`, undefined, EXIT.usage);
  const role = inviteRole(options.role);
  const room = await (await signedInClient(this)).call(api.create, {
    body: { workspace, name: options.name, template: options.template, prompt: options.prompt, invites: (options.invite ?? []).map((to) => ({ to, role })) },
  });
  if (globalOptions(this).json) return printJson(room);
  say(`Created ${noun} ${room.name} (${room.id}).`);
  say(`Open it: ${room.url}`);
}

async function remove(this: Command, id: string) {
  const { api, noun } = endpoints(this);
  await (await signedInClient(this)).call(api.delete, { params: { id } });
  if (globalOptions(this).json) return printJson({ deleted: id });
  say(`Deleted ${noun} ${id} with its document, chat and sources.`);
}

const who = (m: RoomMember) => `${m.user.name ? `${m.user.name} ` : ''}@${m.user.handle}`;

async function people(this: Command, id: string) {
  const { api } = endpoints(this);
  const answer = await (await signedInClient(this)).call(api.people, { params: { id } });
  if (globalOptions(this).json) return printJson(answer);
  printTable(
    answer.members.map((m) => ({ person: who(m), role: m.role, via: m.via })),
    ['person', 'role', 'via'],
  );
  if (answer.invites.length) {
    say();
    say('Pending invites:');
    printTable(
      answer.invites.map((i) => ({ id: i.id, email: i.email, role: i.role, expires: formatTime(i.expiresAt) })),
      ['id', 'email', 'role', 'expires'],
    );
  }
}

function inviteRole(role: string | undefined) {
  const chosen = INVITE_ROLES.find((r) => r === (role ?? 'editor'));
  if (!chosen) throw new CliError(`--role must be one of ${INVITE_ROLES.join(', ')}.`, undefined, EXIT.usage);
  return chosen;
}

async function invite(this: Command, id: string, to: string, options: { role?: string }) {
  const { api } = endpoints(this);
  const answer = await (await signedInClient(this)).call(api.addPerson, { params: { id }, body: { to: to.replace(/^@/, ''), role: inviteRole(options.role) } });
  if (globalOptions(this).json) return printJson(answer);
  if (answer.member) say(`Added ${who(answer.member)} as ${answer.member.role}.`);
  if (answer.invite) {
    say(`Invited ${answer.invite.email} as ${answer.invite.role}, until ${formatTime(answer.invite.expiresAt)}${answer.invite.emailed ? '; the link was e-mailed' : ''}.`);
    if (answer.invite.url) say(`Link (shown once, for one use): ${answer.invite.url}`);
  }
}

async function markdown(this: Command, id: string, options: { output?: string }) {
  const { api } = endpoints(this);
  const response = await (await signedInClient(this)).bytes(api.markdown, { params: { id } });
  const text = await response.text();
  if (options.output) {
    await writeFile(options.output, text);
    if (globalOptions(this).json) return printJson({ written: options.output, bytes: Buffer.byteLength(text) });
    return say(`Wrote ${options.output}.`);
  }
  if (globalOptions(this).json) return printJson({ markdown: text });
  process.stdout.write(text);
}

async function sources(this: Command, id: string) {
  const { api } = endpoints(this);
  const answer = await (await signedInClient(this)).call(api.sources, { params: { id } });
  if (globalOptions(this).json) return printJson(answer.sources);
  if (answer.sources.length === 0) return say('No sources.');
  printTable(
    answer.sources.map((s) => ({
      id: s.id,
      name: s.name,
      size: String(s.size),
      status: s.status,
      ai: s.hiddenFromAi ? 'hidden' : 'used',
      by: s.uploadedBy ? `@${s.uploadedBy.handle}` : '',
      added: formatTime(s.createdAt),
    })),
    ['id', 'name', 'size', 'status', 'ai', 'by', 'added'],
  );
}

const REASONS = { edits: 'edits', named: 'named', restore: 'before a restore' } as const;

const snapshotRow = (s: PageSnapshot) => ({
  id: s.id,
  when: formatTime(s.createdAt),
  kind: REASONS[s.reason],
  name: s.name ?? '',
  by: (s.createdBy ? [s.createdBy] : s.editors).map((u) => `@${u.handle}`).join(' '),
});

async function history(this: Command, id: string, page: string, options: { name?: string; diff?: string; to?: string }) {
  const { api } = endpoints(this);
  const client = await signedInClient(this);
  const params = { id, pageId: page };
  if (options.name !== undefined && options.diff !== undefined) throw new CliError('Give --name or --diff, not both.', undefined, EXIT.usage);
  if (options.to !== undefined && options.diff === undefined) throw new CliError('--to needs --diff <from>.', undefined, EXIT.usage);
  if (options.name !== undefined) {
    const snapshot = await client.call(api.nameSnapshot, { params, body: { name: options.name } });
    if (globalOptions(this).json) return printJson(snapshot);
    return say(`Kept the page as "${snapshot.name}" (${snapshot.id}).`);
  }
  if (options.diff !== undefined) {
    const diff = await client.call(api.historyDiff, { params, query: { from: options.diff, to: options.to ?? 'current' } });
    if (globalOptions(this).json) return printJson(diff);
    say(`--- ${diff.from}\n+++ ${diff.to}  (${diff.added} added, ${diff.removed} removed)`);
    for (const line of diff.lines) say(`${line.op === 'add' ? '+' : line.op === 'remove' ? '-' : ' '} ${line.text}`);
    return;
  }
  const { snapshots } = await client.call(api.history, { params });
  if (globalOptions(this).json) return printJson(snapshots);
  if (snapshots.length === 0) return say('No history for this page yet.');
  printTable(snapshots.map(snapshotRow), ['id', 'when', 'kind', 'name', 'by']);
}

async function restore(this: Command, id: string, page: string, snapshot: string) {
  const { api } = endpoints(this);
  const answer = await (await signedInClient(this)).call(api.restore, { params: { id, pageId: page, snapshotId: snapshot } });
  if (globalOptions(this).json) return printJson(answer);
  say(`Restored the page to ${answer.restored.name ? `"${answer.restored.name}"` : `its version of ${formatTime(answer.restored.createdAt)}`}; everyone connected sees it now.`);
  say(`To undo: atrium rooms restore ${id} ${page} ${answer.before.id}`);
}

export function register(program: Command) {
  const rooms = program
    .command('rooms')
    .description('List, create and manage rooms (or, with --live, live spaces)')
    .option('--live', 'work on live spaces instead of rooms')
    .addHelpText('after', '\nExamples:\n  $ atrium rooms list\n  $ atrium rooms create acme --name "Launch plan" --template brief\n  $ atrium rooms list --live --json');
  rooms
    .command('list')
    .description('Rooms you can open, most recently active first')
    .option('--workspace <slug>', 'only this workspace’s')
    .addHelpText('after', '\nExample:\n  $ atrium rooms list --workspace acme')
    .action(list);
  rooms
    .command('create <workspace>')
    .description('Create a room in a workspace (member or above)')
    .option('--name <name>', 'its name (default: from the template or the prompt)')
    .option('--template <template>', `starting document: ${TEMPLATES.join(', ')}`)
    .option('--prompt <text>', 'what the room is for; quoted at the top of the first page')
    .option('--invite <to...>', 'handles or e-mail addresses to invite')
    .option('--role <role>', 'the invitees’ role: editor, commenter or viewer (default: editor)')
    .addHelpText('after', '\nExample:\n  $ atrium rooms create acme --template retro --invite ada bo@example.com --role commenter')
    .action(create);
  rooms
    .command('info <id>')
    .description('Show a room: workspace, your role, link access, activity, address')
    .addHelpText('after', '\nExample:\n  $ atrium rooms info rm_k3j9x0q2m5v8b1n4c7z6a')
    .action(show);
  rooms
    .command('rm <id>')
    .description('Delete a room with its document, chat and sources (manage)')
    .addHelpText('after', '\nExample:\n  $ atrium rooms rm rm_k3j9x0q2m5v8b1n4c7z6a')
    .action(remove);
  rooms
    .command('people <id>')
    .description('Members with their roles, and pending invites (for managers)')
    .addHelpText('after', '\nExample:\n  $ atrium rooms people rm_k3j9x0q2m5v8b1n4c7z6a --json')
    .action(people);
  rooms
    .command('invite <id> <to>')
    .description('Add someone by handle, or invite an e-mail address (a link valid 7 days, one use)')
    .option('--role <role>', 'editor, commenter or viewer (default: editor)')
    .addHelpText('after', '\nExamples:\n  $ atrium rooms invite rm_k3j9x0q2m5v8b1n4c7z6a ada\n  $ atrium rooms invite rm_k3j9x0q2m5v8b1n4c7z6a bo@example.com --role viewer')
    .action(invite);
  rooms
    .command('markdown <id>')
    .description('Print the document as Markdown, every page under its title')
    .option('-o, --output <file>', 'write to a file instead')
    .addHelpText('after', '\nExample:\n  $ atrium rooms markdown rm_k3j9x0q2m5v8b1n4c7z6a -o notes.md')
    .action(markdown);
  rooms
    .command('sources <id>')
    .description('Files attached to a room')
    .addHelpText('after', '\nExample:\n  $ atrium rooms sources rm_k3j9x0q2m5v8b1n4c7z6a')
    .action(sources);
  rooms
    .command('history <id> <page>')
    .description("A page's snapshots, newest first (the page id is the ?page= of its address); or compare two, or keep the page now under a name")
    .option('--name <name>', 'keep the page as it is now under this name (edit)')
    .option('--diff <from>', 'show what changed since this snapshot, as a diff of the Markdown')
    .option('--to <to>', 'with --diff: the snapshot to compare with (default: the page now, "current")')
    .addHelpText(
      'after',
      '\nExamples:\n  $ atrium rooms history rm_k3j9x0q2m5v8b1n4c7z6a 3f2a9c1b\n  $ atrium rooms history rm_k3j9x0q2m5v8b1n4c7z6a 3f2a9c1b --diff rps_0m4…\n  $ atrium rooms history rm_k3j9x0q2m5v8b1n4c7z6a 3f2a9c1b --name "Before the review"',
    )
    .action(history);
  rooms
    .command('restore <id> <page> <snapshot>')
    .description('Make a page hold a snapshot again, as a new change everyone connected sees (edit; the page as it was is kept first)')
    .addHelpText('after', '\nExample:\n  $ atrium rooms restore rm_k3j9x0q2m5v8b1n4c7z6a 3f2a9c1b rps_0m4x8c2k9v1b7n3q5z6a')
    .action(restore);
}
