// The command tree of the atrium CLI, apart from running it, so that the
// manual (docs/cli.md) can be generated from the same definitions.
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import * as auth from './commands/auth.ts';
import * as push from './commands/push.ts';
import * as spaces from './commands/spaces.ts';
import * as uploads from './commands/uploads.ts';
import * as workspaces from './commands/workspaces.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
const groups = [auth, workspaces, spaces, push, uploads];

export function buildProgram(): Command {
  const program = new Command('atrium')
    .description('Publish and manage Atrium spaces from the terminal.')
    .version(version)
    .option('--server <url>', 'Atrium server (default: ATRIUM_URL, the signed-in server, or http://localhost:3000)')
    .option('--json', 'print results as JSON for scripts')
    .showHelpAfterError('(run with --help for usage)')
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
