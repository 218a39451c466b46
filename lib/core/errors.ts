// The error codes of the spec with their statuses. Domain code throws ApiError;
// the route wrapper turns it into { error: { code, message } }.
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A 429 always says when to come back. */
type RetryAfter = { 'retry-after': string } & Record<string, string>;

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;

  constructor(code: 'rate_limited', message: string, headers: RetryAfter);
  constructor(code: Exclude<ErrorCode, 'rate_limited'>, message: string, headers?: Record<string, string>);
  constructor(code: ErrorCode, message: string, headers: RetryAfter);
  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** The spec's error envelope, from an ApiError or from a code and message. */
export function errorResponse(error: ApiError): Response;
export function errorResponse(code: 'rate_limited', message: string, headers: RetryAfter): Response;
export function errorResponse(code: Exclude<ErrorCode, 'rate_limited'>, message: string, headers?: Record<string, string>): Response;
export function errorResponse(what: ApiError | ErrorCode, message?: string, headers: Record<string, string> = {}): Response {
  const [code, text, extra] = what instanceof ApiError ? [what.code, what.message, what.headers] : [what, message, headers];
  return Response.json({ error: { code, message: text } }, { status: ERROR_STATUS[code], headers: extra });
}
