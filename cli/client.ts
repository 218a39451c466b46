// The CLI's only way to the server: the public /v1 API. Network failures and
// 5xx answers of idempotent requests are retried with backoff.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';

export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export class NetworkError extends Error {}

type Query = Record<string, string | number | undefined>;

type RequestOptions = {
  body?: unknown;
  query?: Query;
  /** Status codes other than 2xx that the caller handles itself. */
  accept?: number[];
  retries?: number;
};

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function backoff(attempt: number): number {
  return Math.min(8000, 250 * 2 ** attempt) * (0.5 + Math.random() / 2);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export class ApiClient {
  readonly server: string;
  readonly token: string | undefined;

  constructor(server: string, token?: string) {
    this.server = server;
    this.token = token;
  }

  url(path: string, query?: Query): string {
    const url = new URL(path, `${this.server}/`);
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    return url.toString();
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<{ status: number; body: T }> {
    const headers = this.headers();
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const retries = options.retries ?? (IDEMPOTENT.has(method) ? 4 : 0);
    const response = await this.fetch(this.url(path, options.query), () => ({ method, headers, body }), retries);
    return this.answer<T>(response, options.accept ?? []);
  }

  /** Streams a file as the raw body (never whole in memory); each retry reopens it. */
  async sendFile<T>(method: 'PUT' | 'POST', path: string, file: string, size: number, query?: Query): Promise<T> {
    const headers = { ...this.headers(), 'content-type': 'application/octet-stream', 'content-length': String(size) };
    const init = () => ({ method, headers, body: Readable.toWeb(createReadStream(file)) as ReadableStream, duplex: 'half' }) as RequestInit;
    const response = await this.fetch(this.url(path, query), init, IDEMPOTENT.has(method) ? 4 : 0);
    return (await this.answer<T>(response, [])).body;
  }

  /** A successful response whose body the caller reads (a file download). */
  async download(path: string, query?: Query): Promise<Response> {
    const response = await this.fetch(this.url(path, query), () => ({ headers: this.headers() }), 4);
    if (!response.ok) await this.answer(response, []);
    return response;
  }

  async get<T>(path: string, query?: Query): Promise<T> {
    return (await this.request<T>('GET', path, { query })).body;
  }

  async post<T>(path: string, body?: unknown): Promise<T> {
    return (await this.request<T>('POST', path, { body: body ?? {} })).body;
  }

  async patch<T>(path: string, body: unknown): Promise<T> {
    return (await this.request<T>('PATCH', path, { body })).body;
  }

  async delete(path: string): Promise<void> {
    await this.request('DELETE', path);
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': `atrium-cli (node ${process.versions.node})` };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    return headers;
  }

  private async fetch(url: string, init: () => RequestInit, retries: number): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(url, init());
        if (response.status < 500 || attempt >= retries) return response;
        await response.body?.cancel();
      } catch (error) {
        if (attempt >= retries) {
          const cause = (error as Error & { cause?: Error }).cause;
          throw new NetworkError(`Cannot reach ${this.server}: ${cause?.message ?? (error as Error).message}`);
        }
      }
      await sleep(backoff(attempt));
    }
  }

  /** The parsed body of a successful (or accepted) answer; ApiRequestError otherwise. */
  private async answer<T>(response: Response, accept: number[]): Promise<{ status: number; body: T }> {
    const text = await response.text();
    const body = text ? parseJson(text) : undefined;
    if (response.ok || accept.includes(response.status)) return { status: response.status, body: body as T };
    const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ApiRequestError(response.status, error?.code ?? 'error', error?.message ?? `The server answered ${response.status}.`);
  }
}
