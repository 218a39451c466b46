// Spaces: list, create, inspect and configure them; link a folder; read
// versions and history; download files and whole versions.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import type { AtriumClient } from '../../lib/client/index.ts';
import { accountsApi } from '../../lib/schemas/accounts.ts';
import { spacesApi, type Space } from '../../lib/schemas/spaces.ts';
import { openInBrowser } from '../browser.ts';
import { globalOptions, nodeStream, signedInClient } from '../context.ts';
import { CliError, EXIT, formatTime, note, printJson, printTable, say, shellWord } from '../output.ts';
import { eachLimit } from '../../lib/pool.ts';
import { Progress } from '../progress.ts';
import { readLink, spaceIdFor, withSpaceOption, writeLink } from '../space-link.ts';
import { describeDiff } from './push.ts';

/** A file path as the `{path...}` parameter takes it. */
const segments = (p: string) => p.split('/');

type PatchBody = { name?: string; visibility?: 'public' | 'members'; password?: string | null; guestComments?: boolean; guestWrites?: boolean };

function printSpace(s: Space) {
  say(`${s.name}  (${s.id})`);
  say(`  workspace   ${s.workspace.slug}`);
  say(`  visibility  ${s.visibility}${s.passwordProtected ? ', password protected' : ''}`);
  say(`  version     ${s.latestVersion || 'none yet'}`);
  say(`  url         ${s.url}`);
}

async function list(this: Command, options: { workspace?: string }) {
  const { spaces } = await (await signedInClient(this)).call(spacesApi.list, { query: { workspace: options.workspace } });
  if (globalOptions(this).json) return printJson(spaces);
  if (spaces.length === 0) return say('No spaces yet. Create one with `atrium spaces create <name>`.');
  printTable(
    spaces.map((s) => ({ id: s.id, name: s.name, workspace: s.workspace.slug, visibility: s.visibility, version: String(s.latestVersion) })),
    ['id', 'name', 'workspace', 'visibility', 'version'],
  );
}

async function defaultWorkspace(client: AtriumClient, given?: string): Promise<string> {
  if (given) return given;
  const me = await client.call(accountsApi.me);
  return me.user.handle; // the personal workspace
}

async function create(this: Command, name: string, options: { workspace?: string; visibility?: string }) {
  const client = await signedInClient(this);
  const visibility = options.visibility;
  if (visibility !== undefined && visibility !== 'public' && visibility !== 'members') {
    throw new CliError(`--visibility must be public or members, not "${visibility}".`, undefined, EXIT.usage);
  }
  const created = await client.call(spacesApi.create, { body: { workspace: await defaultWorkspace(client, options.workspace), name, visibility } });
  if (globalOptions(this).json) return printJson(created);
  say(`Created space ${created.name} (${created.id}).`);
  say(created.url);
}

async function info(this: Command, id: string | undefined) {
  const client = await signedInClient(this);
  const found = await client.call(spacesApi.get, { params: { id: id ?? (await spaceIdFor(this)) } });
  if (globalOptions(this).json) return printJson(found);
  printSpace(found);
}

async function open(this: Command, id: string | undefined, options: { site?: boolean }) {
  const client = await signedInClient(this);
  const found = await client.call(spacesApi.get, { params: { id: id ?? (await spaceIdFor(this)) } });
  const url = new URL(options.site ? found.url : found.path, `${client.baseUrl}/`).toString();
  if (globalOptions(this).json) return printJson({ url, space: found.id });
  say(url);
  if (!openInBrowser(url)) note('(no browser to open here: the address is above)');
}

async function set(this: Command, id: string | undefined, options: Record<string, string | boolean | undefined>) {
  const body: PatchBody = {};
  if (options.name !== undefined) body.name = String(options.name);
  if (options.visibility !== undefined) body.visibility = options.visibility as PatchBody['visibility'];
  if (options.password !== undefined) body.password = options.password === false ? null : String(options.password);
  if (options.guestComments !== undefined) body.guestComments = Boolean(options.guestComments);
  if (options.guestWrites !== undefined) body.guestWrites = Boolean(options.guestWrites);
  if (Object.keys(body).length === 0) throw new CliError('Nothing to change.', 'See `atrium spaces set --help` for the settings.');
  const client = await signedInClient(this);
  const updated = await client.call(spacesApi.patch, { params: { id: id ?? (await spaceIdFor(this)) }, body });
  if (globalOptions(this).json) return printJson(updated);
  printSpace(updated);
}

async function init(this: Command, dir: string | undefined, options: { space?: string; name?: string; workspace?: string }) {
  const root = path.resolve(dir ?? '.');
  const client = await signedInClient(this);
  const existing = await readLink(root);
  let target: Space;
  if (options.space) {
    target = await client.call(spacesApi.get, { params: { id: options.space } });
  } else {
    if (existing && !options.name) throw new CliError(`${root} is already linked to ${existing.spaceId}.`, 'Pass --space <id> or --name <name> to link it elsewhere.');
    target = await client.call(spacesApi.create, { body: { workspace: await defaultWorkspace(client, options.workspace), name: options.name ?? path.basename(root) } });
  }
  await writeLink(root, { server: client.baseUrl, spaceId: target.id });
  if (globalOptions(this).json) return printJson(target);
  // The push command for the folder as it was named, so that it works from where init was typed.
  say(`Linked ${root} to ${target.name} (${target.id}). Publish it with \`atrium push${dir ? ` ${shellWord(dir)}` : ''}\`.`);
}

async function versions(this: Command) {
  const { versions: list } = await (await signedInClient(this)).call(spacesApi.versions, { params: { id: await spaceIdFor(this) } });
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
  const { entries } = await client.call(spacesApi.history, { params: { id: await spaceIdFor(this), path: segments(file) } });
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
  const body = nodeStream(response);
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
  const response = await client.bytes(spacesApi.download, { params: { id: await spaceIdFor(this), path: segments(file) }, query: { v: options.at } });
  if (!options.output) {
    await pipeline(nodeStream(response), process.stdout);
    return;
  }
  await saveDownload(response, path.resolve(options.output));
}

async function pull(this: Command, dir: string | undefined, options: { at?: string }) {
  const { json } = globalOptions(this);
  const root = path.resolve(dir ?? '.');
  const client = await signedInClient(this);
  const spaceId = await spaceIdFor(this, root);
  const detail = await client.call(spacesApi.version, { params: { id: spaceId, n: options.at ?? 'latest' } });
  const progress = new Progress('Downloading', detail.files.length, detail.files.reduce((n, f) => n + f.size, 0), !json);
  await eachLimit(detail.files, 8, async (file) => {
    const target = path.resolve(root, ...file.path.split('/'));
    if (!target.startsWith(root + path.sep)) throw new CliError(`Refusing to write ${file.path} outside ${root}.`);
    const response = await client.bytes(spacesApi.download, { params: { id: spaceId, path: segments(file.path) }, query: { v: String(detail.version.number) } });
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
    .description("Open a space's page in the browser (default: the linked one); same as `atrium open`")
    .option('--site', 'open where the latest version is served instead')
    .addHelpText('after', '\nExample:\n  $ atrium spaces open sp_k3j9x0q2m5v8b1n4c7z6a --site')
    .action(open);

  withSpaceOption(program.command('open'))
    .description("Open the linked space's page in the browser, or its published site with --site")
    .option('--site', 'open where the latest version is served instead')
    .addHelpText('after', '\nThe address is printed too, for terminals without a browser.\n\nExamples:\n  $ atrium open\n  $ atrium open --site --space sp_k3j9x0q2m5v8b1n4c7z6a')
    .action(function (this: Command, options: { site?: boolean }) {
      return open.call(this, undefined, options);
    });
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


