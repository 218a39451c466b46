// What every command gets: the global options and a client for the server in force.
import type { Command } from 'commander';
import { ApiClient } from './client.ts';
import { resolveSession } from './config.ts';
import { CliError } from './output.ts';

export type GlobalOptions = { server?: string; json?: boolean };

export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals() as GlobalOptions;
}

/** A client that is signed in, or a clear error telling how to sign in. */
export async function signedInClient(command: Command): Promise<ApiClient> {
  const { server, token } = await resolveSession(globalOptions(command).server);
  if (!token) throw new CliError(`You are not signed in to ${server}.`, 'Run `atrium login` (or set ATRIUM_TOKEN).');
  return new ApiClient(server, token);
}

export async function anonymousClient(command: Command): Promise<ApiClient> {
  const { server } = await resolveSession(globalOptions(command).server);
  return new ApiClient(server);
}
