// The API's error messages name what a program sent ("body.url: must be an
// https:// URL."); a person reading the web app needs to hear what to do. The
// web app's client passes every error through humanMessage, so each form and
// button shows these sentences while the API keeps its precise ones.

/** Fields whose problems read best as one instruction, whatever the API said. */
const FIELD_SENTENCES: [field: RegExp, problem: RegExp, sentence: string][] = [
  [/^url$/, /https?:\/\/|http\(s\)|Invalid URL/, 'Enter an address that starts with https://.'],
  [/^(handle|slug)$/, /pattern/, 'Use lowercase letters, digits and single hyphens, starting with a letter or digit.'],
  [/^email$/, /./, 'Enter an email address, like name@example.com.'],
];

/** Whole messages, or parts of them, that speak of the request rather than the page. */
const PHRASES: [RegExp, string][] = [
  [/Send write: true to change the database\./, 'To change the database, tick “Allow writes” (shown to those who may push to this space).'],
  [/^The request body is not valid JSON\.$/, 'That could not be sent: reload the page and try again.'],
];

/** "body.guest.name" → "Name"; "body.events.2" → "Events". */
function fieldLabel(path: string[]): string {
  const last = [...path].reverse().find((part) => !/^\d+$/.test(part)) ?? 'value';
  const words = last.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** zod's messages as the end of a sentence about a field ("… is required."). */
function problemText(problem: string): string | null {
  let match: RegExpExecArray | null;
  if (/^Invalid input: expected \w+, received (undefined|null)$/.test(problem)) return 'is required.';
  if ((match = /^Too small: expected string to have >=(\d+) characters?$/.exec(problem))) return match[1] === '1' ? 'cannot be empty.' : `needs at least ${match[1]} characters.`;
  if ((match = /^Too big: expected string to have <=(\d+) characters?$/.exec(problem))) return `can be at most ${Number(match[1]).toLocaleString('en')} characters.`;
  if ((match = /^Too small: expected array to have >=(\d+) items?$/.exec(problem))) return match[1] === '1' ? 'needs at least one choice.' : `needs at least ${match[1]} choices.`;
  if ((match = /^Too big: expected array to have <=(\d+) items?$/.exec(problem))) return `can have at most ${match[1]}.`;
  if ((match = /^Too small: expected number to be >=?(-?[\d.]+)$/.exec(problem))) return `must be at least ${match[1]}.`;
  if ((match = /^Too big: expected number to be <=?(-?[\d.]+)$/.exec(problem))) return `can be at most ${match[1]}.`;
  if (/^Invalid input: expected (int|number)/.test(problem)) return 'must be a whole number.';
  if (/^Invalid option/.test(problem)) return 'is not one of the choices.';
  if (/^Invalid string: must match pattern/.test(problem)) return 'is not in the expected form.';
  if (/^Invalid (input|string|URL)/.test(problem)) return 'is not valid.';
  return null;
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** What a person should read for an API error: `code` and `message` as the envelope carried them. */
export function humanMessage(code: string, message: string): string {
  const field = /^(?:body|query|params)\.([\w.-]+): (.+)$/s.exec(message);
  if (code === 'bad_request' && field) {
    const path = field[1].split('.');
    const problem = field[2];
    const name = path.at(-1)!;
    const instruction = FIELD_SENTENCES.find(([f, p]) => f.test(name) && p.test(problem));
    if (instruction) return instruction[2];
    const label = fieldLabel(path);
    const zodProblem = problemText(problem);
    if (zodProblem) return `${label} ${zodProblem}`;
    // The domain's own words: "must not be before start" continues the field's name; anything else follows it.
    if (/^(must|can|is|needs|should) /.test(problem)) return `${label} ${sentence(problem)}`;
    return `${label}: ${sentence(problem.charAt(0).toUpperCase() + problem.slice(1))}`;
  }
  let text = message;
  for (const [phrase, replacement] of PHRASES) text = text.replace(phrase, replacement);
  return text;
}
