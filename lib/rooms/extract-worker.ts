// Text extraction, run as a child process by sources.ts so that a hostile or
// huge file can be killed (time and memory caps) without touching the server.
// argv: kind (text | html | pdf), the most characters to print. Bytes on
// stdin, text on stdout; a non-zero exit means unreadable.
const [kind, maxArg] = process.argv.slice(2);
const max = Number(maxArg) || 200_000;

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const bytes = Buffer.concat(chunks);

let text = '';
if (kind === 'pdf') {
  const { extractText, getDocumentProxy } = await import('unpdf');
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const result = await extractText(pdf, { mergePages: true });
  text = Array.isArray(result.text) ? result.text.join('\n\n') : result.text;
} else {
  const decoded = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  if (kind === 'html') {
    const { convert } = await import('html-to-text');
    text = convert(decoded, { wordwrap: false, selectors: [{ selector: 'img', format: 'skip' }, { selector: 'a', options: { ignoreHref: true } }] });
  } else {
    text = decoded;
  }
}
process.stdout.write(text.slice(0, max));
export {};
