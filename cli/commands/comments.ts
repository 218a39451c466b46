// Comment threads on a space's files: list, start, reply, resolve, reopen,
// edit, delete, and the history of a comment's edits.
import type { Command } from 'commander';
import { commentsApi } from '../../lib/schemas/comments.ts';
import { globalOptions, signedInClient } from '../context.ts';
import { CliError, formatTime, printJson, printTable, say } from '../output.ts';
import { spaceIdFor, withSpaceOption } from '../space-link.ts';

type ListOptions = { path?: string; status?: 'open' | 'resolved' | 'all' };

const STATUSES = ['open', 'resolved', 'all'];

function oneLine(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

async function list(this: Command) {
  // `comments` and `comments list` share the options; either may have parsed them.
  const options = this.optsWithGlobals() as ListOptions;
  if (options.status && !STATUSES.includes(options.status)) throw new CliError(`--status must be one of ${STATUSES.join(', ')}.`);
  const client = await signedInClient(this);
  const { threads } = await client.call(commentsApi.list, {
    params: { id: await spaceIdFor(this) },
    query: { path: options.path, status: options.status ?? 'open' },
  });
  if (globalOptions(this).json) return printJson(threads);
  if (threads.length === 0) return say(`No ${options.status === 'all' ? '' : `${options.status ?? 'open'} `}threads.`);
  printTable(
    threads.flatMap((t) => [
      {
        id: t.id,
        file: `${t.path}${t.anchor?.status === 'orphaned' ? ' (text gone)' : ''}${t.alias ? ` (via ${t.alias})` : ''}`,
        by: t.author.kind === 'guest' ? `${t.author.name} (guest)` : t.author.handle ? `@${t.author.handle}` : t.author.name,
        when: formatTime(t.createdAt),
        status: t.resolvedAt ? 'resolved' : 'open',
        text: `${t.quote ? `“${oneLine(t.quote, 20)}” ` : ''}${oneLine(t.body)}`,
      },
      ...t.replies.map((r) => ({
        id: `  ${r.id}`,
        file: '',
        by: r.author.kind === 'guest' ? `${r.author.name} (guest)` : r.author.handle ? `@${r.author.handle}` : r.author.name,
        when: formatTime(r.createdAt),
        status: '',
        text: oneLine(r.body),
      })),
    ]),
    ['id', 'file', 'by', 'when', 'status', 'text'],
  );
}

function printComment(command: Command, comment: { id: string; path: string; body: string }, what: string) {
  if (globalOptions(command).json) return printJson(comment);
  say(`${what} ${comment.id} on ${comment.path}.`);
}

async function add(this: Command, path: string, body: string, options: { quote?: string; version?: string; alias?: string }) {
  const client = await signedInClient(this);
  const versionNumber = options.version === undefined ? undefined : Number(options.version);
  if (versionNumber !== undefined && !(Number.isInteger(versionNumber) && versionNumber > 0)) throw new CliError('--version must be a version number.');
  const created = await client.call(commentsApi.create, { params: { id: await spaceIdFor(this) }, body: { path, body, quote: options.quote, versionNumber, alias: options.alias } });
  printComment(this, created, 'Started thread');
}

async function reply(this: Command, id: string, body: string) {
  const client = await signedInClient(this);
  const spaceId = await spaceIdFor(this);
  // A reply names its thread's file: find it among the space's threads.
  const { threads } = await client.call(commentsApi.list, { params: { id: spaceId }, query: { status: 'all' } });
  const thread = threads.find((t) => t.id === id || t.replies.some((r) => r.id === id));
  if (!thread) throw new CliError(`No comment ${id} in this space.`, 'List them with `atrium comments list --status all`.');
  const created = await client.call(commentsApi.create, { params: { id: spaceId }, body: { path: thread.path, body, parentId: id } });
  printComment(this, created, 'Replied with');
}

async function resolve(this: Command, id: string) {
  const comment = await (await signedInClient(this)).call(commentsApi.resolve, { params: { id } });
  printComment(this, comment, 'Resolved thread');
}

async function reopen(this: Command, id: string) {
  const comment = await (await signedInClient(this)).call(commentsApi.unresolve, { params: { id } });
  printComment(this, comment, 'Reopened thread');
}

async function edit(this: Command, id: string, body: string) {
  const comment = await (await signedInClient(this)).call(commentsApi.edit, { params: { id }, body: { body } });
  printComment(this, comment, 'Edited comment');
}

async function remove(this: Command, id: string) {
  await (await signedInClient(this)).call(commentsApi.delete, { params: { id }, body: {} });
  if (globalOptions(this).json) return printJson({ deleted: id });
  say(`Deleted comment ${id} and its replies.`);
}

async function history(this: Command, id: string) {
  const { revisions } = await (await signedInClient(this)).call(commentsApi.revisions, { params: { id } });
  if (globalOptions(this).json) return printJson(revisions);
  if (revisions.length === 0) return say('Never edited.');
  printTable(
    revisions.map((r, i) => ({ '#': String(i + 1), written: formatTime(r.writtenAt), replaced: formatTime(r.replacedAt), text: oneLine(r.body) })),
    ['#', 'written', 'replaced', 'text'],
  );
}

export function register(program: Command) {
  const listing = (command: Command) =>
    withSpaceOption(command)
      .option('--path <path>', 'only threads on this file')
      .option('--status <status>', 'open, resolved or all (default: open)');
  const comments = listing(program.command('comments'))
    .description("List a space's comment threads, or manage them with a subcommand")
    .addHelpText('after', '\nExamples:\n  $ atrium comments\n  $ atrium comments list --path docs/guide.md --status all')
    .action(list);
  listing(comments.command('list'))
    .description('List comment threads with their replies')
    .addHelpText('after', '\nExample:\n  $ atrium comments list --status resolved --json')
    .action(list);
  withSpaceOption(comments.command('add <path> <body>'))
    .description('Start a thread on a file, optionally on a quote of its text')
    .option('--quote <text>', 'the text of the file the thread is about')
    .option('--version <n>', 'the version of the file (default: the latest)')
    .option('--alias <name>', 'the preview the thread is about: its version, and the alias recorded with the thread')
    .addHelpText('after', '\nExamples:\n  $ atrium comments add docs/guide.md "Which tool?" --quote "Install the tool"\n  $ atrium comments add index.html "The header overlaps" --alias pr-42')
    .action(add);
  withSpaceOption(comments.command('reply <id> <body>'))
    .description('Reply to a thread (a reply to a reply joins its thread)')
    .addHelpText('after', '\nExample:\n  $ atrium comments reply cmt_k3j9x0q2m5v8b1n4c7z6a "Done."')
    .action(reply);
  comments
    .command('resolve <id>')
    .description('Resolve a thread (its author or someone who can push)')
    .addHelpText('after', '\nExample:\n  $ atrium comments resolve cmt_k3j9x0q2m5v8b1n4c7z6a')
    .action(resolve);
  comments
    .command('reopen <id>')
    .description('Reopen a resolved thread')
    .addHelpText('after', '\nExample:\n  $ atrium comments reopen cmt_k3j9x0q2m5v8b1n4c7z6a')
    .action(reopen);
  comments
    .command('edit <id> <body>')
    .description('Change the text of your comment (the old text is kept)')
    .addHelpText('after', '\nExample:\n  $ atrium comments edit cmt_k3j9x0q2m5v8b1n4c7z6a "Fixed wording"')
    .action(edit);
  comments
    .command('rm <id>')
    .description('Delete a comment and its replies (your own, or any if you can push)')
    .addHelpText('after', '\nExample:\n  $ atrium comments rm cmt_k3j9x0q2m5v8b1n4c7z6a')
    .action(remove);
  comments
    .command('history <id>')
    .description("A comment's earlier texts, oldest first")
    .addHelpText('after', '\nExample:\n  $ atrium comments history cmt_k3j9x0q2m5v8b1n4c7z6a')
    .action(history);
}
