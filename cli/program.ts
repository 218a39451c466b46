// The command tree of the atrium CLI, apart from running it, so that the
// manual (docs/cli.md) can be generated from the same definitions.
import { Command } from 'commander';
import * as aliases from './commands/aliases.ts';
import * as apps from './commands/apps.ts';
import * as auth from './commands/auth.ts';
import * as comments from './commands/comments.ts';
import * as completion from './commands/completion.ts';
import * as db from './commands/db.ts';
import * as domains from './commands/domains.ts';
import * as push from './commands/push.ts';
import * as spaces from './commands/spaces.ts';
import * as uploads from './commands/uploads.ts';
import * as workspaces from './commands/workspaces.ts';
import * as billing from './commands/billing.ts';
import * as rooms from './commands/rooms.ts';
import * as webhooks from './commands/webhooks.ts';
import { VERSION } from './version.ts';

const groups = [auth, workspaces, spaces, push, aliases, domains, uploads, comments, db, rooms, apps, billing, webhooks, completion];

const ENVIRONMENT = `
Environment:
  ATRIUM_URL         the server, when --server is not given (CI)
  ATRIUM_TOKEN       an API token to use instead of a saved sign-in; no prompts (CI)
  ATRIUM_CONFIG_DIR  where sign-ins are saved (default: the platform's config folder)
  BROWSER=none       never open a browser

Exit codes:
  0    success
  1    failure: the server refused, could not be reached, or the command could not finish
  2    usage error: an unknown command or option, or a missing or invalid argument
  130  interrupted (Ctrl-C)

Example:
  $ atrium login --server https://atrium.example.com`;

export function buildProgram(): Command {
  const program = new Command('atrium')
    .description('Publish and manage Atrium spaces from the terminal.')
    .version(VERSION)
    .option('--server <url>', 'Atrium server (default: ATRIUM_URL, else the server you last signed in to, else http://localhost:3000)')
    .option('--json', 'print results as JSON for scripts')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', ENVIRONMENT)
    .exitOverride();
  for (const group of groups) group.register(program);
  return program;
}

/** Every command with its full help text, depth first, for the manual. */
export function allCommands(command: Command, prefix = ''): { name: string; help: string }[] {
  const name = prefix ? `${prefix} ${command.name()}` : command.name();
  const own = { name, help: fullHelp(command) };
  return [own, ...command.commands.filter((c) => c.name() !== 'help').flatMap((c) => allCommands(c, name))];
}

// The help exactly as `--help` prints it, with the examples added to it.
function fullHelp(command: Command): string {
  let text = '';
  const output = command.configureOutput();
  const help = command.configureHelp();
  command.configureOutput({ ...output, writeOut: (chunk) => (text += chunk), getOutHelpWidth: () => 100 });
  command.configureHelp({ ...help, helpWidth: 100 });
  command.outputHelp();
  command.configureOutput(output);
  command.configureHelp(help);
  return text;
}
