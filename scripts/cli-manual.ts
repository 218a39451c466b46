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
    'Install it from a checkout with `npm link` (or run `node cli/main.ts`). The server is taken from',
    '`--server`, then `ATRIUM_URL`, then the server you signed in to, then `http://localhost:3000`; the',
    'token from `ATRIUM_TOKEN`, then the config file (`$XDG_CONFIG_HOME/atrium/config.json` on Linux,',
    '`~/Library/Application Support/atrium/config.json` on macOS, `%APPDATA%\\atrium\\config.json` on',
    'Windows; `ATRIUM_CONFIG_DIR` overrides the folder), which is readable only by you.',
    '',
    'Every command exits 0 on success and non-zero on failure; `--json` prints data for scripts.',
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
