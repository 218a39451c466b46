// The AI builder: with AI_BASE_URL set, a build asks that OpenAI-compatible
// endpoint (POST <base>/chat/completions) for an app spec, giving it the
// page's Markdown, the caller's instructions and the spec's shape. Its answer
// must be a JSON spec (spec.ts) and is checked; the files are still rendered
// by render.ts, so the model never writes HTML or script.
import { config } from '../config.ts';
import { appSpec, type AppSpec } from './spec.ts';

const AI_TIMEOUT_MS = 60_000;

const SHAPE = `{"name": string, "pages": [{"slug": "" for the home page else lowercase-with-hyphens, "title": string, "blocks": [
 {"type":"heading","level":1-6,"text":string} | {"type":"text","text":string} | {"type":"list","ordered":boolean,"items":[string]} | {"type":"table","table":<table name>}]}],
 "tables": [{"name": lowercase_snake_case, "title": string, "columns": [string], "rows": [[string]], "guestWrites": boolean (visitors may add rows)}]}`;

export async function aiSpec(markdown: string, instructions: string | null, fallbackName: string, log: (line: string) => void): Promise<AppSpec> {
  const ai = config.ai!;
  const messages = [
    {
      role: 'system',
      content: `You turn a document into a small web app. Answer with one JSON object only, of this shape:\n${SHAPE}\nThe first page's slug is "". Keep the document's content.`,
    },
    { role: 'user', content: `Document (Markdown):\n\n${markdown}\n\n${instructions ? `Instructions: ${instructions}\n` : ''}If the document has no title, call the app "${fallbackName}".` },
  ];
  log(`asking ${ai.model} at ${new URL(ai.baseUrl).host}`);
  const response = await fetch(`${ai.baseUrl.replace(/\/$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(ai.apiKey ? { authorization: `Bearer ${ai.apiKey}` } : {}) },
    body: JSON.stringify({ model: ai.model, messages, response_format: { type: 'json_object' }, temperature: 0.2 }),
    signal: AbortSignal.timeout(AI_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`The AI endpoint answered ${response.status}.`);
  const body = (await response.json()) as { choices?: { message?: { content?: string } }[] };
  const content = body.choices?.[0]?.message?.content;
  if (!content) throw new Error('The AI endpoint answered without a message.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    throw new Error('The AI answer was not JSON.');
  }
  const result = appSpec.safeParse(parsed);
  if (!result.success) throw new Error(`The AI answer is not an app spec: ${result.error.issues[0]?.path.join('.')}: ${result.error.issues[0]?.message}`);
  const spec = result.data;
  // Every table a page names must exist, and the first page is the home page.
  const names = new Set(spec.tables.map((t) => t.name));
  for (const page of spec.pages) page.blocks = page.blocks.filter((b) => b.type !== 'table' || names.has(b.table));
  spec.pages[0].slug = '';
  const slugs = new Set<string>();
  spec.pages = spec.pages.filter((p) => !slugs.has(p.slug) && slugs.add(p.slug));
  log(`the model made ${spec.pages.length} page(s) and ${spec.tables.length} table(s)`);
  return spec;
}
