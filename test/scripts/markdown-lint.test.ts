// The Markdown linter of `npm test` (.markdownlint-cli2.jsonc) catches what breaks the
// README and docs on GitHub: a table cut in two by a blank line, a row with a cell too
// many or too few, a link to a heading that does not exist, text in <angle brackets>
// that a browser takes for a tag.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** The linter's findings for one document (on its standard input) with the project's configuration, as "line rule". */
function lint(text: string): string[] {
  const run = spawnSync(path.join(root, 'node_modules/.bin/markdownlint-cli2'), ['--no-globs', '-'], { cwd: root, input: text, encoding: 'utf8' });
  return run.stderr.split('\n').flatMap((line) => /^stdin:(\d+)(?::\d+)? error ([\w-]+)/.exec(line)?.slice(1).join(' ') ?? []).sort();
}

const TABLE = ['# Title', '', '| name | meaning |', '|---|---|', '| `A` | the first |', '| `B` | the second |', ''];

describe('the Markdown linter', () => {
  it('passes a well-formed document with long lines and plain code blocks', () => {
    expect(lint([...TABLE, 'See [the title](#title). ' + 'A long line.'.repeat(30), '', '```', 'plain text', '```', ''].join('\n'))).toEqual([]);
  });

  it('finds the rows a blank line cut from their table', () => {
    const broken = [...TABLE.slice(0, 5), '', '| `B` | the second |', '| `C` | the third |', ''].join('\n');
    expect(lint(broken)).toEqual(['7 table-rows-outside-tables']);
  });

  it('finds a row with a missing cell, a link to no heading, and a tag-like word', () => {
    const findings = lint([...TABLE.slice(0, 5), '| `B` |', '', 'See [nothing](#nowhere) and /s/<id>/.', ''].join('\n'));
    expect(findings).toEqual(['6 MD056', '8 MD033', '8 MD051']);
  });
});
