#!/usr/bin/env node
// The atrium command-line tool. It talks to an Atrium server through the
// public /v1 API only. Each file in commands/ registers one group of commands.
import { CommanderError } from 'commander';
import { ApiRequestError, NetworkError } from './client.ts';
import { CliError } from './output.ts';
import { buildProgram } from './program.ts';

function fail(message: string, hint?: string, code = 1): never {
  process.stderr.write(`Error: ${message}\n${hint ? `${hint}\n` : ''}`);
  process.exit(code);
}

process.on('SIGINT', () => fail('Cancelled.', undefined, 130));

try {
  await buildProgram().parseAsync();
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  if (error instanceof CliError) fail(error.message, error.hint, error.exitCode);
  if (error instanceof ApiRequestError) {
    if (error.status === 401) fail(error.message, 'Run `atrium login` to sign in again.');
    if (error.status === 404) fail(error.message, 'Check the name or id, and that your account can see it.');
    fail(error.message);
  }
  if (error instanceof NetworkError) fail(error.message, 'Is the server running? Set it with --server or ATRIUM_URL.');
  throw error;
}
