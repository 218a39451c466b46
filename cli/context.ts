// What every command gets: the global options and a client for the server in force.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { Command } from 'commander';
import { createClient, type AtriumClient, type RawBody } from '../lib/client/index.ts';
import { resolveSession } from './config.ts';
import { CliError } from './output.ts';
import { VERSION } from './version.ts';

export type GlobalOptions = { server?: string; json?: boolean };

export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals() as GlobalOptions;
}

export function clientFor(server: string, token?: string): AtriumClient {
  return createClient({ baseUrl: server, token, headers: { 'user-agent': `atrium-cli/${VERSION} (node ${process.versions.node})` } });
}

/** A client that is signed in, or a clear error telling how to sign in. */
export async function signedInClient(command: Command): Promise<AtriumClient> {
  const { server, token } = await resolveSession(globalOptions(command).server);
  if (!token) throw new CliError(`You are not signed in to ${server}.`, `Run \`atrium login --server ${server}\` (or set ATRIUM_TOKEN).`);
  return clientFor(server, token);
}

export async function anonymousClient(command: Command): Promise<AtriumClient> {
  const { server } = await resolveSession(globalOptions(command).server);
  return clientFor(server);
}

/** A file as a raw request body, streamed (never whole in memory); each retry reopens it. */
export function fileBody(file: string, size: number): RawBody {
  return { body: () => Readable.toWeb(createReadStream(file)) as ReadableStream, length: size };
}

/** A download's body as a Node stream. */
export function nodeStream(response: Response): Readable {
  return Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
}
