// Aliases of a space: named addresses that point at one of its versions
// (previews of a branch or a pull request).
import type { Command } from 'commander';
import { spacesApi } from '../../lib/schemas/spaces.ts';
import { globalOptions, signedInClient } from '../context.ts';
import { CliError, formatTime, printJson, printTable, say } from '../output.ts';
import { spaceIdFor, withSpaceOption } from '../space-link.ts';

async function list(this: Command) {
  const { aliases } = await (await signedInClient(this)).call(spacesApi.aliases, { params: { id: await spaceIdFor(this) } });
  if (globalOptions(this).json) return printJson(aliases);
  if (aliases.length === 0) return say('No aliases. Point one at a version with `atrium alias set <name> <version>` or `atrium push --alias <name>`.');
  printTable(
    aliases.map((a) => ({ name: a.name, version: String(a.version), url: a.url, moved: formatTime(a.updatedAt), by: a.updatedBy ? `@${a.updatedBy.handle}` : '-' })),
    ['name', 'version', 'url', 'moved', 'by'],
  );
}

async function set(this: Command, name: string, version: string) {
  if (!/^[1-9]\d{0,8}$/.test(version)) throw new CliError(`"${version}" is not a version number.`, 'Versions are numbered from 1; `atrium versions` lists them.', 2);
  const alias = await (await signedInClient(this)).call(spacesApi.setAlias, { params: { id: await spaceIdFor(this), name }, body: { version: Number(version) } });
  if (globalOptions(this).json) return printJson(alias);
  say(`Alias ${alias.name} now serves version ${alias.version}:`);
  say(alias.url);
}

async function remove(this: Command, name: string) {
  await (await signedInClient(this)).call(spacesApi.deleteAlias, { params: { id: await spaceIdFor(this), name } });
  if (globalOptions(this).json) return printJson({ deleted: name });
  say(`Removed alias ${name}; its address no longer serves anything.`);
}

export function register(program: Command) {
  const alias = withSpaceOption(program.command('alias'))
    .description("List a space's aliases (named preview addresses of versions), or manage them with a subcommand")
    .addHelpText('after', '\nExamples:\n  $ atrium alias\n  $ atrium alias set pr-42 7\n  $ atrium push ./dist --alias pr-42')
    .action(list);
  withSpaceOption(alias.command('list'))
    .description("List the space's aliases")
    .addHelpText('after', '\nExample:\n  $ atrium alias list --json')
    .action(list);
  withSpaceOption(alias.command('set <name> <version>'))
    .description('Point an alias at a version (created if needed); the move is atomic')
    .addHelpText('after', '\nExample:\n  $ atrium alias set staging 12')
    .action(set);
  withSpaceOption(alias.command('rm <name>'))
    .description('Remove an alias; its address stops serving at once')
    .addHelpText('after', '\nExample:\n  $ atrium alias rm pr-42')
    .action(remove);
}
