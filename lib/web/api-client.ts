// Client components call the /v1 API through this, with the session cookie.
// A failure throws ApiClientError carrying the API's code and message.
export class ApiClientError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return undefined as T;
  const json = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiClientError(response.status, json?.error?.code ?? 'error', json?.error?.message ?? `Request failed (${response.status}).`);
  }
  return json as T;
}
