// An endpoint's contract: method, path, who may call it and the zod schemas of
// its input and output. Route files implement endpoints; the OpenAPI document
// and the CLI's typed client are derived from the same definitions.
import type { z } from 'zod';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * - `user`: a signed-in caller (API token or web session).
 * - `web`: a web session only; an API token is refused with 403.
 * - `optional`: signed in or anonymous; the handler decides.
 * - `anonymous`: credentials are not read at all.
 */
export type Auth = 'user' | 'web' | 'optional' | 'anonymous';

type AnyObject = z.ZodObject;

export type Endpoint<
  A extends Auth = Auth,
  P extends AnyObject | undefined = AnyObject | undefined,
  Q extends AnyObject | undefined = AnyObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | null = z.ZodType | null,
> = {
  method: Method;
  /** The spec's path, e.g. `/v1/spaces/{id}/files/{path...}`. */
  path: string;
  summary: string;
  tag: string;
  auth: A;
  params?: P;
  query?: Q;
  body?: B;
  /** The 2xx JSON body; null for 204 No Content. */
  response: R;
  /** Success status when not 200 (204 is implied by a null response; a null response with a status answers bytes, not JSON). */
  status?: number;
  /** Error statuses the spec names for this endpoint, for the document. */
  errors?: number[];
  /**
   * The cap of a JSON body when it is not the default 1 MiB. A body allowed to
   * be larger is read only when the handler asks for it (`readBody`), after
   * the domain's permission check, never up front.
   */
  maxBodyBytes?: number;
  /**
   * The handler's first statement checks the caller's token itself (its row
   * exists and it has not expired; lib/auth/tokens.ts, LIVE_TOKEN), so the
   * wrapper may name the caller from the same token's lookup of the last
   * minute instead of a statement of its own. For the hottest routes only (a
   * blob PUT, once per file of a push; a space database query, which checks
   * it in the statement that loads the space: lib/spaces/spaces.ts); a
   * revoked token still fails at once.
   */
  checksOwnToken?: true;
};

export function endpoint<
  A extends Auth,
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType | null = null,
>(definition: Endpoint<A, P, Q, B, R>): Endpoint<A, P, Q, B, R> {
  return definition;
}
