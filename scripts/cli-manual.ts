// Writes docs/cli.md from the CLI's own help texts; `--check` fails when the
// file is out of date (a test runs that).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { allCommands, buildProgram } from '../cli/program.ts';

const file = path.resolve(import.meta.dirname, '../docs/cli.md');

export function manual(): string {
  const sections = allCommands(buildProgram()).map(({ name, help }) => `## \`${name}\`\n\n\`\`\`\n${help.trimEnd()}\n\`\`\`\n`);
  return [
    '# The atrium command-line tool',
    '',
    'Generated from the commands\' own `--help` by `node scripts/cli-manual.ts`; do not edit by hand.',
    '',
    'Install it with `npm install -g <tarball>` (`npm run pack:cli` builds the tarball; Node 22 or later),',
    'or from a checkout with `npm link`. The server is taken from `--server`, then `ATRIUM_URL`, then the',
    'server you last signed in to (`atrium auth switch` changes it), then `http://localhost:3000`; the token',
    'from `ATRIUM_TOKEN`, then the sign-in saved for that server in the config file',
    '(`$XDG_CONFIG_HOME/atrium/config.json` on Linux, `~/.config/atrium/config.json` when `XDG_CONFIG_HOME`',
    'is unset, `~/Library/Application Support/atrium/config.json` on macOS, `%APPDATA%\\atrium\\config.json`',
    'on Windows; `ATRIUM_CONFIG_DIR` overrides the folder), which is readable only by you and holds one',
    'sign-in per server.',
    '',
    'Exit codes: 0 success, 1 failure, 2 usage error, 130 interrupted. `--json` prints data for scripts.',
    '',
    ...sections,
  ].join('\n');
}

if (import.meta.main) {
  const wanted = manual();
  if (process.argv.includes('--check')) {
    const current = await readFile(file, 'utf8').catch(() => '');
    if (current !== wanted) {
      console.error('docs/cli.md is out of date: run `node scripts/cli-manual.ts`.');
      process.exit(1);
    }
  } else {
    await writeFile(file, wanted);
  }
}
