#!/usr/bin/env node
// The atrium command-line tool. It talks to an Atrium server through the
// public /v1 API only. Each file in commands/ registers one group of commands.
import { CommanderError } from 'commander';
import { AtriumApiError, AtriumNetworkError } from '../lib/client/index.ts';
import { CliError, EXIT } from './output.ts';
import { buildProgram } from './program.ts';

function fail(message: string, hint?: string, code: number = EXIT.failure): never {
  process.stderr.write(`Error: ${message}\n${hint ? `${hint}\n` : ''}`);
  process.exit(code);
}

/** What to do next after the server refused, by status. */
function nextStep(error: AtriumApiError): string | undefined {
  switch (error.status) {
    case 401:
      return 'Run `atrium login` to sign in again (or check ATRIUM_TOKEN).';
    case 403:
      return 'Your account lacks the right for this; ask an admin of the workspace.';
    case 404:
      return 'Check the name or id, and that your account can see it (`atrium auth status` shows who you are).';
    case 413:
      return 'It is larger than the server accepts; see the limit in the message.';
    case 429:
      return `Wait${error.retryAfter ? ` ${error.retryAfter} seconds` : ' a little'} and run the command again.`;
    default:
      return error.status >= 500 ? `The server failed${error.requestId ? ` (request ${error.requestId})` : ''}; try again, and report it if it persists.` : undefined;
  }
}

process.on('SIGINT', () => fail('Cancelled.', undefined, EXIT.interrupted));

try {
  await buildProgram().parseAsync();
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : EXIT.usage);
  if (error instanceof CliError) {
    if (error.quiet) process.exit(error.exitCode);
    fail(error.message, error.hint, error.exitCode);
  }
  if (error instanceof AtriumApiError) fail(error.message, nextStep(error));
  if (error instanceof AtriumNetworkError) fail(error.message, 'Is the server running, and is the address right? Set it with --server or ATRIUM_URL.');
  throw error;
}
