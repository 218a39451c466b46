// What the front server knows of the request being answered, shared with the
// route wrapper without passing it through every call: the request id it
// logs, and who the wrapper found the caller to be, for the request's log line.
import { AsyncLocalStorage } from 'node:async_hooks';

export type RequestContext = {
  requestId: string;
  /** The spec's path of the route that answered, e.g. `/v1/spaces/{id}`. */
  route?: string;
  userId?: string;
};

export const requestContext = new AsyncLocalStorage<RequestContext>();
