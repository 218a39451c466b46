// The typed client of the /v1 API, for the CLI, the web app's client
// components and the tests. A call names its endpoint (from lib/schemas) and
// gets its path, parameters, body and answer types from the same zod
// definitions the server validates with. It imports nothing but types and runs
// wherever fetch does (browsers and Node): no Node built-ins, no Next, no React.
import type { z } from 'zod';
import type { Auth, Endpoint } from '../schemas/endpoint.ts';

// --- Errors ---

/**
 * Any answer that is not 2xx: the envelope's code and message, the status and
 * the request id the server logged it under (quote it in a bug report).
 */
export class AtriumApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | null;
  /** Seconds the server asked to wait (429, 503), when it said. */
  readonly retryAfter: number | null;

  constructor(status: number, code: string, message: string, requestId: string | null = null, retryAfter: number | null = null) {
    super(message);
    this.name = 'AtriumApiError';
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.retryAfter = retryAfter;
  }
}

/** The server could not be reached at all (DNS, refused, reset, TLS): no answer to read. */
export class AtriumNetworkError extends Error {
  readonly url: string;

  constructor(url: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AtriumNetworkError';
    this.url = url;
  }
}

// --- Types derived from an endpoint ---

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEndpoint = Endpoint<Auth, any, any, any, any>;

type Parts<E> = E extends Endpoint<Auth, infer P, infer Q, infer B, infer R> ? { p: P; q: Q; b: B; r: R } : never;

/** A field that may be left out when everything in it is optional. */
type Field<K extends string, T> = {} extends T ? { [k in K]?: T } : { [k in K]: T };

/**
 * A raw request body (blob and upload endpoints, which declare no JSON body).
 * `body` may be a function so that a retry gets a fresh stream.
 */
export type RawBody = {
  body: BodyInit | (() => BodyInit);
  /** Sent as Content-Length; an upload is refused without it. */
  length?: number;
  contentType?: string;
};

export type CallOptions = {
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Attempts after the first; default 4 for idempotent requests, else 0 (429 and 503 are retried either way). */
  retries?: number;
  /** Retry 5xx and network failures although the method is not idempotent (the caller knows a repeat is harmless). */
  idempotent?: boolean;
  /** Retry 429 answers after their Retry-After (default true); false hands them to the caller at once. */
  retryRateLimited?: boolean;
  signal?: AbortSignal;
};

export type CallInput<E extends AnyEndpoint> = CallOptions &
  ([Parts<E>['p']] extends [z.ZodType] ? { params: z.input<Parts<E>['p']> } : { params?: undefined }) &
  ([Parts<E>['q']] extends [z.ZodType] ? Field<'query', z.input<Parts<E>['q']>> : { query?: undefined }) &
  ([Parts<E>['b']] extends [z.ZodType] ? Field<'body', z.input<Parts<E>['b']>> & { raw?: undefined } : { body?: undefined; raw?: RawBody });

/**
 * What a call resolves to: the JSON the server sent, typed as the response
 * schema's input (the server serialises what the handler returned, which the
 * schema checks; the client does not parse it again). undefined for 204.
 */
export type Answer<E extends AnyEndpoint> = [Parts<E>['r']] extends [z.ZodType] ? z.input<Parts<E>['r']> : undefined;

/** What send() handles, whatever the endpoint. */
type LooseInput = CallOptions & { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; raw?: RawBody };

type Args<E extends AnyEndpoint> = {} extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>];

// --- The client ---

export type ClientOptions = {
  /** The server's origin, e.g. https://atrium.example.com; '' for same-origin calls from the web app. */
  baseUrl?: string;
  /** An API token, sent as a Bearer token. Without it, the browser's session cookie (same-origin) is what signs the call in. */
  token?: string;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /** Default attempts after the first (see CallOptions.retries). */
  retries?: number;
  /** Waits between retries; tests replace it. */
  sleep?: (ms: number) => Promise<void>;
  /** Rewrites an error's message before it is thrown (the web app shows people sentences, not field paths). */
  describeError?: (code: string, message: string) => string;
};

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
/** Retry-After longer than this is not waited for: the error goes to the caller. */
const MAX_RETRY_WAIT_MS = 60_000;

/** Exponential backoff with jitter: about 0.25, 0.5, 1, 2, 4, 8 s. */
export function backoff(attempt: number): number {
  return Math.min(8000, 250 * 2 ** attempt) * (0.5 + Math.random() / 2);
}

/** Seconds from a Retry-After header (seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * The request path of an endpoint: `{name}` takes one encoded segment,
 * `{name...}` an array of segments (each encoded, joined by "/").
 */
export function buildPath(template: string, params: Record<string, unknown> = {}): string {
  return template.replace(/\{(\w+)(\.\.\.)?\}/g, (_, name: string, rest: string | undefined) => {
    const value = params[name];
    if (value === undefined || value === null) throw new TypeError(`Missing path parameter "${name}" for ${template}`);
    if (rest) {
      const segments = Array.isArray(value) ? value : String(value).split('/');
      return segments.map((s) => encodeURIComponent(String(s))).join('/');
    }
    return encodeURIComponent(String(value));
  });
}

export function buildQuery(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export type AtriumClient = ReturnType<typeof createClient>;

export function createClient(options: ClientOptions = {}) {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const fetcher = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  function url(endpoint: AnyEndpoint, input: { params?: unknown; query?: unknown } = {}): string {
    return `${baseUrl}${buildPath(endpoint.path, input.params as Record<string, unknown>)}${buildQuery(input.query as Record<string, unknown>)}`;
  }

  function headers(extra?: Record<string, string>): Record<string, string> {
    const all: Record<string, string> = { accept: 'application/json', ...options.headers, ...extra };
    if (options.token) all.authorization = `Bearer ${options.token}`;
    return all;
  }

  /** Sends the request, retrying what is safe to retry; returns the last answer, whatever its status. */
  async function send(endpoint: AnyEndpoint, input: LooseInput): Promise<Response> {
    const target = url(endpoint, input);
    const method = endpoint.method;
    const idempotent = input.idempotent ?? IDEMPOTENT.has(method);
    const retries = input.retries ?? options.retries ?? (idempotent ? 4 : 2);
    const init = (): RequestInit => {
      const h = headers(input.headers);
      let body: BodyInit | undefined;
      if (input.raw) {
        body = typeof input.raw.body === 'function' ? input.raw.body() : input.raw.body;
        h['content-type'] = input.raw.contentType ?? 'application/octet-stream';
        if (input.raw.length !== undefined) h['content-length'] = String(input.raw.length);
      } else if (input.body !== undefined || (endpoint.body && method !== 'GET')) {
        h['content-type'] = 'application/json';
        body = JSON.stringify(input.body ?? {});
      }
      // A stream body needs half-duplex in Node's fetch; browsers ignore the field.
      return { method, headers: h, body, signal: input.signal, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit;
    };
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetcher(target, init());
      } catch (error) {
        if (input.signal?.aborted) throw error;
        if (!idempotent || attempt >= retries) {
          const cause = (error as Error & { cause?: Error }).cause;
          throw new AtriumNetworkError(target, `Cannot reach ${baseUrl || 'the server'}: ${cause?.message ?? (error as Error).message}`, { cause: error });
        }
        await sleep(backoff(attempt));
        continue;
      }
      if (attempt >= retries) return response;
      // 429 and 503 say the request was not processed: safe to repeat, after the wait asked for.
      const limited = response.status === 429 ? input.retryRateLimited !== false : response.status === 503;
      const failed = idempotent && response.status >= 500;
      if (!limited && !failed) return response;
      const after = parseRetryAfter(response.headers.get('retry-after'));
      const wait = after === null ? backoff(attempt) : after * 1000;
      if (wait > MAX_RETRY_WAIT_MS) return response;
      await response.body?.cancel();
      await sleep(wait);
    }
  }

  async function failure(response: Response): Promise<AtriumApiError> {
    const body = parseJson(await response.text().catch(() => '')) as { error?: { code?: unknown; message?: unknown } } | undefined;
    const code = typeof body?.error?.code === 'string' ? body.error.code : 'error';
    const sent = typeof body?.error?.message === 'string' ? body.error.message : `The server answered ${response.status} ${response.statusText}`.trim() + '.';
    const message = options.describeError ? options.describeError(code, sent) : sent;
    return new AtriumApiError(response.status, code, message, response.headers.get('x-request-id'), parseRetryAfter(response.headers.get('retry-after')));
  }

  return {
    baseUrl,
    token: options.token,
    /** The full URL of a call, e.g. for a link. */
    url: <E extends AnyEndpoint>(endpoint: E, input?: { params?: CallInput<E>['params']; query?: CallInput<E>['query'] }) => url(endpoint, input),

    /** Calls an endpoint; resolves to its JSON answer (undefined for 204), throws AtriumApiError for any non-2xx. */
    async call<E extends AnyEndpoint>(endpoint: E, ...[input]: Args<E>): Promise<Answer<E>> {
      const response = await send(endpoint, (input ?? {}) as LooseInput);
      if (!response.ok) throw await failure(response);
      const text = await response.text();
      if (response.status === 204 || endpoint.response === null || !text) return undefined as Answer<E>;
      return parseJson(text) as Answer<E>;
    },

    /**
     * An untyped call by method and path, for the few callers that only get a
     * path at run time (a button a server component configures). Prefer call().
     */
    async request<T = unknown>(method: Endpoint['method'], path: string, input: Omit<LooseInput, 'params'> = {}): Promise<T> {
      const adHoc: AnyEndpoint = { method, path: path.replace(/[{}]/g, encodeURIComponent), summary: '', tag: '', auth: 'optional', response: null };
      const response = await send(adHoc, input);
      if (!response.ok) throw await failure(response);
      const text = await response.text();
      return (text ? parseJson(text) : undefined) as T;
    },

    /** Calls an endpoint that answers bytes (a download); resolves to the successful Response, whose body the caller reads. */
    async bytes<E extends AnyEndpoint>(endpoint: E, ...[input]: Args<E>): Promise<Response> {
      const response = await send(endpoint, (input ?? {}) as LooseInput);
      if (!response.ok) throw await failure(response);
      return response;
    },
  };
}
