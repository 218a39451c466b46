// Splitting a request's SQL into statements. node:sqlite's prepare() compiles
// the first statement and silently drops the rest, so the server splits the
// text itself, with SQLite's own rules for where a statement ends (as
// sqlite3_complete does): a `;` outside strings, quoted names and comments,
// except inside CREATE TRIGGER … BEGIN … END, which ends at `END;`.

export type Statement = {
  sql: string;
  /** The first keyword, upper-cased ("SELECT", "INSERT", …); "" when none. */
  keyword: string;
};

type Token = { kind: 'word' | 'semi' | 'other'; text: string };

function* tokens(sql: string): Generator<Token & { end: number }> {
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl === -1 ? n : nl + 1;
      continue;
    }
    if (c === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close === -1 ? n : close + 2;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      for (;;) {
        const k = sql.indexOf(close, j);
        if (k === -1) {
          j = n;
          break;
        }
        // A doubled quote is an escaped one (not inside [...]).
        if (close !== ']' && sql[k + 1] === close) {
          j = k + 2;
          continue;
        }
        j = k + 1;
        break;
      }
      yield { kind: 'other', text: sql.slice(i, j), end: j };
      i = j;
      continue;
    }
    if (c === ';') {
      yield { kind: 'semi', text: ';', end: i + 1 };
      i++;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i, i + 64));
    if (word) {
      yield { kind: 'word', text: word[0].toUpperCase(), end: i + word[0].length };
      i += word[0].length;
      continue;
    }
    yield { kind: 'other', text: c, end: i + 1 };
    i++;
  }
}

/** The statements of `sql`, in order; empty ones (`;;`, comments only) are dropped. */
export function splitStatements(sql: string): Statement[] {
  const out: Statement[] = [];
  let start = 0;
  let words: string[] = [];
  let sawToken = false;
  let inTrigger = false;
  // The last two tokens, to recognise `; END ;` inside a trigger body.
  let prev: string | null = null;
  let prev2: string | null = null;
  const finish = (end: number) => {
    if (sawToken) out.push({ sql: sql.slice(start, end).trim(), keyword: words[0] ?? '' });
    start = end;
    words = [];
    sawToken = false;
    inTrigger = false;
    prev = prev2 = null;
  };
  for (const token of tokens(sql)) {
    if (token.kind === 'semi') {
      const endsTrigger = inTrigger && prev === 'END' && (prev2 === ';' || prev2 === 'BEGIN');
      if (!inTrigger || endsTrigger) {
        finish(token.end);
        continue;
      }
    } else {
      sawToken = true;
      if (token.kind === 'word' && words.length < 4) {
        words.push(token.text);
        // CREATE [TEMP|TEMPORARY] TRIGGER
        if (words[0] === 'CREATE' && (words[1] === 'TRIGGER' || (words[2] === 'TRIGGER' && (words[1] === 'TEMP' || words[1] === 'TEMPORARY')))) inTrigger = true;
      }
    }
    prev2 = prev;
    prev = token.kind === 'semi' ? ';' : token.text;
  }
  finish(sql.length);
  return out;
}
