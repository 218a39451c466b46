// Spaces: list, create, inspect and configure them; link a folder; read
// versions and history; download files and whole versions.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import type { z } from 'zod';
import type { fileRecord, historyEntry, space, version } from '../../lib/schemas/spaces.ts';
import type { ApiClient } from '../client.ts';
import { openInBrowser } from '../browser.ts';
import { globalOptions, signedInClient } from '../context.ts';
import { CliError, formatTime, printJson, printTable, say } from '../output.ts';
import { eachLimit } from '../pool.ts';
import { Progress } from '../progress.ts';
import { readLink, spaceIdFor, withSpaceOption, writeLink } from '../space-link.ts';
import { describeDiff } from './push.ts';

type Space = z.infer<typeof space>;
type Version = z.infer<typeof version>;
type FileRecord = z.infer<typeof fileRecord>;
type HistoryEntry = z.infer<typeof historyEntry>;

const spacePath = (id: string) => `/v1/spaces/${encodeURIComponent(id)}`;
const filePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');

function printSpace(s: Space) {
  say(`${s.name}  (${s.id})`);
  say(`  workspace   ${s.workspace.slug}`);
  say(`  visibility  ${s.visibility}${s.passwordProtected ? ', password protected' : ''}`);
  say(`  version     ${s.latestVersion || 'none yet'}`);
  say(`  url         ${s.url}`);
}

async function list(this: Command, options: { workspace?: string }) {
  const { spaces } = await (await signedInClient(this)).get<{ spaces: Space[] }>('/v1/spaces', { workspace: options.workspace });
  if (globalOptions(this).json) return printJson(spaces);
  if (spaces.length === 0) return say('No spaces yet. Create one with `atrium spaces create <name>`.');
  printTable(
    spaces.map((s) => ({ id: s.id, name: s.name, workspace: s.workspace.slug, visibility: s.visibility, version: String(s.latestVersion) })),
    ['id', 'name', 'workspace', 'visibility', 'version'],
  );
}

async function defaultWorkspace(client: ApiClient, given?: string): Promise<string> {
  if (given) return given;
  const me = await client.get<{ user: { handle: string } }>('/v1/me');
  return me.user.handle; // the personal workspace
}

async function create(this: Command, name: string, options: { workspace?: string; visibility?: string }) {
  const client = await signedInClient(this);
  const created = await client.post<Space>('/v1/spaces', {
    workspace: await defaultWorkspace(client, options.workspace),
    name,
    visibility: options.visibility,
  });
  if (globalOptions(this).json) return printJson(created);
  say(`Created space ${created.name} (${created.id}).`);
  say(created.url);
}

async function info(this: Command, id: string | undefined) {
  const client = await signedInClient(this);
  const found = await client.get<Space>(spacePath(id ?? (await spaceIdFor(this))));
  if (globalOptions(this).json) return printJson(found);
  printSpace(found);
}

async function open(this: Command, id: string | undefined) {
  const client = await signedInClient(this);
  const found = await client.get<Space>(spacePath(id ?? (await spaceIdFor(this))));
  const url = new URL(found.path, `${client.server}/`).toString();
  say(url);
  openInBrowser(url);
}

async function set(this: Command, id: string | undefined, options: Record<string, string | boolean | undefined>) {
  const body: Record<string, unknown> = {};
  if (options.name !== undefined) body.name = options.name;
  if (options.visibility !== undefined) body.visibility = options.visibility;
  if (options.password !== undefined) body.password = options.password === false ? null : options.password;
  if (options.guestComments !== undefined) body.guestComments = options.guestComments;
  if (options.guestWrites !== undefined) body.guestWrites = options.guestWrites;
  if (Object.keys(body).length === 0) throw new CliError('Nothing to change.', 'See `atrium spaces set --help` for the settings.');
  const client = await signedInClient(this);
  const updated = await client.patch<Space>(spacePath(id ?? (await spaceIdFor(this))), body);
  if (globalOptions(this).json) return printJson(updated);
  printSpace(updated);
}

async function init(this: Command, dir: string | undefined, options: { space?: string; name?: string; workspace?: string }) {
  const root = path.resolve(dir ?? '.');
  const client = await signedInClient(this);
  const existing = await readLink(root);
  let target: Space;
  if (options.space) {
    target = await client.get<Space>(spacePath(options.space));
  } else {
    if (existing && !options.name) throw new CliError(`${root} is already linked to ${existing.spaceId}.`, 'Pass --space <id> or --name <name> to link it elsewhere.');
    target = await client.post<Space>('/v1/spaces', {
      workspace: await defaultWorkspace(client, options.workspace),
      name: options.name ?? path.basename(root),
    });
  }
  await writeLink(root, { server: client.server, spaceId: target.id });
  if (globalOptions(this).json) return printJson(target);
  say(`Linked ${root} to ${target.name} (${target.id}). Publish it with \`atrium push\`.`);
}

async function versions(this: Command) {
  const { versions: list } = await (await signedInClient(this)).get<{ versions: Version[] }>(`${spacePath(await spaceIdFor(this))}/versions`);
  if (globalOptions(this).json) return printJson(list);
  if (list.length === 0) return say('No versions yet. Publish one with `atrium push`.');
  printTable(
    list.map((v) => ({
      version: String(v.number),
      created: formatTime(v.createdAt),
      author: v.author ? `@${v.author.handle}` : 'Deleted user',
      files: String(v.fileCount),
      message: v.message ?? '',
    })),
    ['version', 'created', 'author', 'files', 'message'],
  );
}

async function history(this: Command, file: string) {
  const client = await signedInClient(this);
  const { entries } = await client.get<{ entries: HistoryEntry[] }>(`${spacePath(await spaceIdFor(this))}/history/${filePath(file)}`);
  if (globalOptions(this).json) return printJson(entries);
  if (entries.length === 0) return say(`${file} is in no version.`);
  printTable(
    entries.map((e) => ({ version: String(e.version), change: e.change, created: formatTime(e.createdAt), sha256: e.sha256?.slice(0, 12) ?? '', message: e.message ?? '' })),
    ['version', 'change', 'created', 'sha256', 'message'],
  );
}

/** Streams a download into `target` through a temporary file, checking its hash when known. */
async function saveDownload(response: Response, target: string, sha256?: string) {
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.atrium-download`;
  const hash = createHash('sha256');
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
  body.on('data', (chunk: Buffer) => hash.update(chunk));
  try {
    await pipeline(body, createWriteStream(temporary));
    if (sha256 && hash.digest('hex') !== sha256) throw new CliError(`The download of ${target} does not match its hash; run the command again.`);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

async function download(this: Command, file: string, options: { at?: string; output?: string }) {
  const client = await signedInClient(this);
  const response = await client.download(`${spacePath(await spaceIdFor(this))}/download/${filePath(file)}`, { v: options.at });
  if (!options.output) {
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), process.stdout);
    return;
  }
  await saveDownload(response, path.resolve(options.output));
}

async function pull(this: Command, dir: string | undefined, options: { at?: string }) {
  const { json } = globalOptions(this);
  const root = path.resolve(dir ?? '.');
  const client = await signedInClient(this);
  const spaceId = await spaceIdFor(this, root);
  const detail = await client.get<{ version: Version; files: FileRecord[] }>(`${spacePath(spaceId)}/versions/${options.at ?? 'latest'}`);
  const progress = new Progress('Downloading', detail.files.length, detail.files.reduce((n, f) => n + f.size, 0), !json);
  await eachLimit(detail.files, 8, async (file) => {
    const target = path.resolve(root, ...file.path.split('/'));
    if (!target.startsWith(root + path.sep)) throw new CliError(`Refusing to write ${file.path} outside ${root}.`);
    const response = await client.download(`${spacePath(spaceId)}/download/${filePath(file.path)}`, { v: detail.version.number });
    await saveDownload(response, target, file.sha256);
    progress.add(1, file.size);
  });
  progress.done();
  if (json) return printJson({ version: detail.version, files: detail.files.length, dir: root });
  say(`Pulled version ${detail.version.number} (${detail.files.length} files) into ${root}; every file matches its hash.`);
}

export function register(program: Command) {
  const spaces = program
    .command('spaces')
    .description('List your spaces, or manage one with a subcommand')
    .option('--workspace <slug>', "only this workspace's spaces")
    .addHelpText('after', '\nExamples:\n  $ atrium spaces\n  $ atrium spaces --workspace acme --json')
    .action(list);
  spaces
    .command('create <name>')
    .description('Create a space')
    .option('--workspace <slug>', 'the workspace (default: your personal one)')
    .option('--visibility <visibility>', 'public or members', 'public')
    .addHelpText('after', '\nExample:\n  $ atrium spaces create "Design docs" --workspace acme --visibility members')
    .action(create);
  spaces
    .command('info [id]')
    .description('Show a space (default: the linked one)')
    .addHelpText('after', '\nExample:\n  $ atrium spaces info sp_k3j9x0q2m5v8b1n4c7z6a')
    .action(info);
  spaces
    .command('open [id]')
    .description("Open a space's page in the browser (default: the linked one)")
    .addHelpText('after', '\nExample:\n  $ atrium spaces open')
    .action(open);
  spaces
    .command('set [id]')
    .description('Change the settings of a space (default: the linked one)')
    .option('--name <name>', 'rename it')
    .option('--visibility <visibility>', 'public or members')
    .option('--password <password>', 'ask visitors of a public space for this password')
    .option('--no-password', 'remove the password')
    .option('--guest-comments', 'let guests comment')
    .option('--no-guest-comments', 'do not let guests comment')
    .option('--guest-writes', "let guests run the space database's named writes")
    .option('--no-guest-writes', 'do not let guests write')
    .addHelpText('after', '\nExample:\n  $ atrium spaces set --visibility members --no-password')
    .action(set);

  program
    .command('init [dir]')
    .description('Link a folder (default: the current one) to a space, creating the space unless --space is given')
    .option('--space <id>', 'link to this existing space')
    .option('--name <name>', 'name of the new space (default: the folder name)')
    .option('--workspace <slug>', 'workspace of the new space (default: your personal one)')
    .addHelpText('after', '\nExamples:\n  $ atrium init ./site --name "My site"\n  $ atrium init --space sp_k3j9x0q2m5v8b1n4c7z6a')
    .action(init);

  withSpaceOption(program.command('versions'))
    .description("List a space's versions, newest first")
    .addHelpText('after', '\nExample:\n  $ atrium versions --json')
    .action(versions);

  withSpaceOption(program.command('history <path>'))
    .description('Show the versions in which a file was added, changed or removed')
    .addHelpText('after', '\nExample:\n  $ atrium history index.html')
    .action(history);

  withSpaceOption(program.command('download <path>'))
    .description('Download one file of a version to standard output or a file')
    .option('--at <version>', 'the version number (default: the latest)')
    .option('-o, --output <file>', 'write to this file instead of standard output')
    .addHelpText('after', '\nExample:\n  $ atrium download docs/guide.pdf --at 3 -o guide.pdf')
    .action(download);

  withSpaceOption(program.command('pull [dir]'))
    .description('Download a whole version into a folder (default: the current one), checking every hash')
    .option('--at <version>', 'the version number (default: the latest)')
    .addHelpText('after', '\nExample:\n  $ atrium pull ./copy --space sp_k3j9x0q2m5v8b1n4c7z6a --at 3')
    .action(pull);
}


