// Client components call the /v1 API through the typed client, same-origin,
// signed in by the session cookie. A failure throws AtriumApiError carrying
// the API's code and its message put for a person (components show `.message`).
import { createClient } from '../client/index.ts';
import { humanMessage } from './human-errors.ts';

export { AtriumApiError, AtriumNetworkError } from '../client/index.ts';

// No retries: a person who sees an error can click again, and a click that
// hangs through backoff looks broken.
export const web = createClient({ baseUrl: '', retries: 0, describeError: humanMessage });

/** For components handed a method and path by a server component (ActionButton, DeleteButton); everything else uses web.call. */
export function api<T = unknown>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  return web.request<T>(method, path, { body });
}
