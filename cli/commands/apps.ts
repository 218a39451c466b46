// Apps built from rooms: list them, show one, put it live, promote the latest
// preview, roll back to an earlier deploy, list deploys, and export a zip.
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import type { App } from '../../lib/schemas/apps.ts';
import { appsApi } from '../../lib/schemas/apps.ts';
import { globalOptions, nodeStream, signedInClient } from '../context.ts';
import { CliError, EXIT, formatTime, printJson, printTable, say } from '../output.ts';

const ACCESS = ['public', 'code', 'private'] as const;

function describe(app: App) {
  say(`${app.name} (${app.id}): ${app.status}`);
  say(`  room       ${app.room.name} (${app.room.id}), workspace ${app.room.workspace.slug}`);
  say(`  preview    version ${app.previewVersion}: ${app.previewUrl}`);
  say(`  live       ${app.liveVersion === null ? 'not live' : `version ${app.liveVersion}: ${app.liveUrl}`}`);
  if (app.liveDataSpaceId) say(`  live data  atrium db tables --space ${app.liveDataSpaceId}`);
  say(`  access     ${app.access}${app.joinCode ? ` (join code ${app.joinCode})` : ''}`);
  say(`  last build ${app.build.status ?? 'none'}${app.build.finishedAt ? ` at ${formatTime(app.build.finishedAt)}` : ''}${app.build.error ? `: ${app.build.error}` : ''}`);
}

async function list(this: Command, options: { workspace?: string; room?: string }) {
  const { apps } = await (await signedInClient(this)).call(appsApi.list, { query: { workspace: options.workspace, room: options.room } });
  if (globalOptions(this).json) return printJson({ apps });
  if (!apps.length) return say('No apps.');
  printTable(
    apps.map((a) => ({ id: a.id, name: a.name, status: a.status, live: a.liveVersion === null ? '-' : `v${a.liveVersion}`, preview: `v${a.previewVersion}`, url: a.liveUrl ?? '' })),
    ['id', 'name', 'status', 'live', 'preview', 'url'],
  );
}

async function info(this: Command, id: string) {
  const app = await (await signedInClient(this)).call(appsApi.get, { params: { id } });
  if (globalOptions(this).json) return printJson(app);
  describe(app);
}

async function live(this: Command, id: string, options: { access: string; copyData?: boolean }) {
  const access = ACCESS.find((a) => a === options.access);
  if (!access) throw new CliError(`--access must be one of ${ACCESS.join(', ')}, not "${options.access}".`, undefined, EXIT.usage);
  const app = await (await signedInClient(this)).call(appsApi.live, { params: { id }, body: { access, copyData: options.copyData ?? false } });
  if (globalOptions(this).json) return printJson(app);
  say(`${app.name} is live at ${app.liveUrl}${app.joinCode ? ` (join code ${app.joinCode})` : ''}`);
}

async function promote(this: Command, id: string) {
  const app = await (await signedInClient(this)).call(appsApi.promote, { params: { id } });
  if (globalOptions(this).json) return printJson(app);
  say(`Version ${app.liveVersion} is live at ${app.liveUrl}`);
}

async function rollback(this: Command, id: string, deploy: string) {
  if (!/^[1-9]\d{0,8}$/.test(deploy)) throw new CliError(`The deploy must be a number, not "${deploy}".`, undefined, EXIT.usage);
  const app = await (await signedInClient(this)).call(appsApi.rollback, { params: { id }, body: { deploy: Number(deploy) } });
  if (globalOptions(this).json) return printJson(app);
  say(`Rolled back: version ${app.liveVersion} is live at ${app.liveUrl}`);
}

async function deploys(this: Command, id: string) {
  const result = await (await signedInClient(this)).call(appsApi.deploys, { params: { id } });
  if (globalOptions(this).json) return printJson(result);
  if (!result.deploys.length) return say('Not live yet: no deploys.');
  printTable(
    result.deploys.map((d) => ({
      deploy: `${d.deploy}${d.current ? ' *' : ''}`,
      kind: d.kind,
      version: `v${d.version}`,
      changes: `+${d.changes.added.length} ~${d.changes.changed.length} -${d.changes.removed.length}`,
      by: d.actor ? `@${d.actor.handle}` : '',
      when: formatTime(d.createdAt),
    })),
    ['deploy', 'kind', 'version', 'changes', 'by', 'when'],
  );
}

async function exportZip(this: Command, id: string, options: { output?: string }) {
  const client = await signedInClient(this);
  const app = await client.call(appsApi.get, { params: { id } });
  const target = options.output ?? `${app.slug}.zip`;
  const response = await client.bytes(appsApi.export, { params: { id } });
  const temporary = `${target}.atrium-download`;
  try {
    await pipeline(nodeStream(response), createWriteStream(temporary));
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  if (globalOptions(this).json) return printJson({ file: target });
  say(`Saved ${target}: unzip it and run npm start inside (Node 22.5 or later).`);
}

export function register(program: Command) {
  const apps = program
    .command('apps')
    .description('Apps built from rooms: list, inspect, put live, promote, roll back, export')
    .addHelpText('after', '\nExamples:\n  $ atrium apps list\n  $ atrium apps live app_k3j9x0q2m5v8b1n4c7z6a --access public');
  apps
    .command('list')
    .description('Apps in rooms you can view')
    .option('--workspace <slug>', 'only this workspace')
    .option('--room <id>', 'only this room')
    .addHelpText('after', '\nExample:\n  $ atrium apps list --workspace acme')
    .action(list);
  apps.command('info <id>').description("An app's status, preview, live address and last build").addHelpText('after', '\nExample:\n  $ atrium apps info app_k3j9x0q2m5v8b1n4c7z6a').action(info);
  apps
    .command('live <id>')
    .description('Put the preview live for the first time (the plan limits live apps)')
    .option('--access <access>', 'public, code or private', 'code')
    .option('--copy-data', "copy the preview's rows into the live tables")
    .addHelpText('after', '\nExample:\n  $ atrium apps live app_k3j9x0q2m5v8b1n4c7z6a --access code --copy-data')
    .action(live);
  apps.command('promote <id>').description('Make the latest preview version live').addHelpText('after', '\nExample:\n  $ atrium apps promote app_k3j9x0q2m5v8b1n4c7z6a').action(promote);
  apps
    .command('rollback <id> <deploy>')
    .description('Serve the version of an earlier deploy (see: atrium apps deploys)')
    .addHelpText('after', '\nExample:\n  $ atrium apps rollback app_k3j9x0q2m5v8b1n4c7z6a 2')
    .action(rollback);
  apps.command('deploys <id>').description('Deploy history, newest first; * marks what is live').addHelpText('after', '\nExample:\n  $ atrium apps deploys app_k3j9x0q2m5v8b1n4c7z6a').action(deploys);
  apps
    .command('export <id>')
    .description('Download a zip of a project that serves the app and its data with Node alone')
    .option('-o, --output <file>', 'where to save it (default: <slug>.zip)')
    .addHelpText('after', '\nExample:\n  $ atrium apps export app_k3j9x0q2m5v8b1n4c7z6a -o club.zip')
    .action(exportZip);
}
