// One-off uploads of a space: files shared outside its versions.
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { spacesApi } from '../../lib/schemas/spaces.ts';
import { fileBody, globalOptions, nodeStream, signedInClient } from '../context.ts';
import { CliError, formatTime, printJson, printTable, say } from '../output.ts';
import { formatBytes } from '../../lib/format.ts';
import { spaceIdFor, withSpaceOption } from '../space-link.ts';


async function add(this: Command, file: string, options: { name?: string }) {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new CliError(`${file} is not a file.`);
  const client = await signedInClient(this);
  const created = await client.call(spacesApi.upload, {
    params: { id: await spaceIdFor(this) },
    query: { name: options.name ?? path.basename(file) },
    raw: fileBody(file, info.size),
  });
  if (globalOptions(this).json) return printJson(created);
  say(`Uploaded ${created.name} (${formatBytes(created.size)}) as ${created.id}.`);
}

async function list(this: Command) {
  const { uploads } = await (await signedInClient(this)).call(spacesApi.uploads, { params: { id: await spaceIdFor(this) } });
  if (globalOptions(this).json) return printJson(uploads);
  if (uploads.length === 0) return say('No uploads. Add one with `atrium uploads add <file>`.');
  printTable(
    uploads.map((u) => ({ id: u.id, name: u.name, size: formatBytes(u.size), uploaded: formatTime(u.createdAt), by: u.uploadedBy ? `@${u.uploadedBy.handle}` : 'Deleted user' })),
    ['id', 'name', 'size', 'uploaded', 'by'],
  );
}

async function get(this: Command, id: string, options: { output?: string; link?: boolean }) {
  const client = await signedInClient(this);
  const params = { id: await spaceIdFor(this), uploadId: id };
  if (options.link) {
    const link = await client.call(spacesApi.uploadLink, { params });
    const url = new URL(link.url, `${client.baseUrl}/`).toString();
    if (globalOptions(this).json) return printJson({ ...link, url });
    return say(url);
  }
  const response = await client.bytes(spacesApi.uploadRaw, { params });
  await pipeline(nodeStream(response), options.output ? createWriteStream(options.output) : process.stdout);
}

async function remove(this: Command, id: string) {
  await (await signedInClient(this)).call(spacesApi.deleteUpload, { params: { id: await spaceIdFor(this), uploadId: id } });
  if (globalOptions(this).json) return printJson({ deleted: id });
  say(`Deleted upload ${id}.`);
}

export function register(program: Command) {
  const uploads = withSpaceOption(program.command('uploads'))
    .description("List a space's one-off uploads, or manage them with a subcommand")
    .addHelpText('after', '\nExamples:\n  $ atrium uploads\n  $ atrium uploads add report.pdf')
    .action(list);
  withSpaceOption(uploads.command('add <file>'))
    .description('Upload a file')
    .option('--name <name>', 'the name to give it (default: the file name)')
    .addHelpText('after', '\nExample:\n  $ atrium uploads add ./report.pdf --name "Q3 report.pdf"')
    .action(add);
  withSpaceOption(uploads.command('get <id>'))
    .description('Download an upload to standard output or a file, or print a 5-minute link to it')
    .option('-o, --output <file>', 'write to this file')
    .option('--link', 'print a download link valid for 5 minutes instead')
    .addHelpText('after', '\nExample:\n  $ atrium uploads get up_k3j9x0q2m5v8b1n4c7z6a -o report.pdf')
    .action(get);
  withSpaceOption(uploads.command('rm <id>'))
    .description('Delete an upload')
    .addHelpText('after', '\nExample:\n  $ atrium uploads rm up_k3j9x0q2m5v8b1n4c7z6a')
    .action(remove);
}
