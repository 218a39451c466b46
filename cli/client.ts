// The CLI's only way to the server: the public /v1 API. Network failures and
// 5xx answers of idempotent requests are retried with backoff.
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

type RequestOptions = {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Status codes other than 2xx that the caller handles itself. */
  accept?: number[];
  retries?: number;
};

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ApiClient {
  readonly server: string;
  readonly token: string | undefined;

  constructor(server: string, token?: string) {
    this.server = server;
    this.token = token;
  }

  url(path: string, query?: RequestOptions['query']): string {
    const url = new URL(path, `${this.server}/`);
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    return url.toString();
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = { 'user-agent': `atrium-cli (node ${process.versions.node})` };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let payload: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(options.body);
    }
    const retries = options.retries ?? (IDEMPOTENT.has(method) ? 4 : 0);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(this.url(path, options.query), { method, headers, body: payload });
      } catch (error) {
        if (attempt < retries) {
          await sleep(backoff(attempt));
          continue;
        }
        throw new NetworkError(`Cannot reach ${this.server}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}`);
      }
      if (response.status >= 500 && attempt < retries) {
        await response.body?.cancel();
        await sleep(backoff(attempt));
        continue;
      }
      const text = await response.text();
      const body = text ? parseJson(text) : undefined;
      if (response.ok || options.accept?.includes(response.status)) return { status: response.status, body: body as T };
      const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
      throw new ApiRequestError(response.status, error?.code ?? 'error', error?.message ?? `The server answered ${response.status}.`);
    }
  }

  async get<T>(path: string, query?: RequestOptions['query']): Promise<T> {
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
}

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
