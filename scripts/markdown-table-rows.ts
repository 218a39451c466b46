// A markdownlint rule: a line of pipes that does not parse as part of a table. A blank
// line inside a table (or a missing |---| row) ends it there, and GitHub renders the
// rows after it as one paragraph of pipes; markdownlint's own table rules see no table
// there, so none of them says so.
import type { MicromarkToken, Rule } from 'markdownlint';

function paragraphs(tokens: MicromarkToken[]): MicromarkToken[] {
  return tokens.flatMap((token) => (token.type === 'paragraph' ? [token] : paragraphs(token.children)));
}

const tableRowsOutsideTables: Rule = {
  names: ['table-rows-outside-tables'],
  description: 'Table row outside a table (a blank line or a missing |---| row broke the table)',
  tags: ['table'],
  parser: 'micromark',
  function(params, onError) {
    for (const paragraph of paragraphs(params.parsers.micromark.tokens)) {
      // The paragraph's own first line, after any list or quote markers before it.
      const line = params.lines[paragraph.startLine - 1].slice(paragraph.startColumn - 1);
      if (line.startsWith('|')) onError({ lineNumber: paragraph.startLine, context: line.slice(0, 60) });
    }
  },
};

export default tableRowsOutsideTables;
