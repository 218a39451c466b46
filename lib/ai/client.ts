// The one client of the optional AI service: an OpenAI-compatible
// `POST {AI_BASE_URL}/chat/completions` (OpenAI, a local llama.cpp or vLLM
// server, any gateway that speaks the same API). Off unless AI_BASE_URL is
// set. Input and output are capped and every call has a deadline, so a slow or
// chatty service cannot hold a socket or a request for long. Errors say what
// went wrong in words a user can act on; neither the key nor the text sent is
// ever logged or put in a message.
import { config } from '../config.ts';
import { log } from '../log.ts';

/** Characters of text sent in one call (system and user messages together). */
export const MAX_INPUT_CHARS = 8000;
/** Characters of the answer kept. */
export const MAX_OUTPUT_CHARS = 4000;
/** Tokens asked for; the answer is cut at MAX_OUTPUT_CHARS anyway. */
const MAX_TOKENS = 800;
export const AI_TIMEOUT_MS = 20_000;
/** Bytes of the response body read at most (an answer is a few kilobytes). */
const MAX_RESPONSE_BYTES = 256 * 1024;

export class AiError extends Error {
  override name = 'AiError';
}

export function aiConfigured(): boolean {
  return config.ai !== null;
}

export type Completion = { system: string; user: string; timeoutMs?: number };

/** Cuts text to `max` characters without splitting a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** One chat completion: the assistant's text, trimmed and capped. Throws AiError. */
export async function complete({ system, user, timeoutMs = AI_TIMEOUT_MS }: Completion): Promise<string> {
  const ai = config.ai;
  if (!ai) throw new AiError('AI suggestions are off on this server (AI_BASE_URL is not set).');
  const systemText = clip(system, MAX_INPUT_CHARS);
  const userText = clip(user, Math.max(0, MAX_INPUT_CHARS - systemText.length));
  const url = `${ai.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const started = Date.now();
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...(ai.apiKey ? { authorization: `Bearer ${ai.apiKey}` } : {}) },
      body: JSON.stringify({
        model: ai.model,
        messages: [
          { role: 'system', content: systemText },
          { role: 'user', content: userText },
        ],
        max_tokens: MAX_TOKENS,
        temperature: 0.4,
        stream: false,
      }),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    log.warn('AI request failed', { reason: timedOut ? 'timeout' : 'network', ms: Date.now() - started });
    throw new AiError(timedOut ? `The AI service did not answer within ${Math.round(timeoutMs / 1000)} seconds.` : 'The AI service could not be reached.');
  }
  const body = await readCapped(response).catch(() => null);
  if (!response.ok) {
    log.warn('AI request refused', { status: response.status, ms: Date.now() - started });
    throw new AiError(
      response.status === 401 || response.status === 403
        ? 'The AI service refused this server’s key (check AI_API_KEY).'
        : response.status === 429
          ? 'The AI service is busy (it answered 429); try again in a moment.'
          : `The AI service answered ${response.status}.`,
    );
  }
  let content: unknown;
  try {
    content = (JSON.parse(body ?? '') as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
  } catch {
    content = undefined;
  }
  if (typeof content !== 'string' || !content.trim()) {
    log.warn('AI answer unreadable', { status: response.status, ms: Date.now() - started });
    throw new AiError('The AI service gave no usable answer.');
  }
  return clip(content.trim(), MAX_OUTPUT_CHARS);
}

async function readCapped(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new AiError('The AI service’s answer is too large.');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
