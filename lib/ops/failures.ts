// The answer to a failure nobody expected, the same for API routes, sites and
// room-socket upgrades.
import { isDatabaseBusy, isDatabaseUnavailable, noteDatabaseUnavailable } from '../db/client.ts';
import { log } from '../log.ts';
import { ApiError, errorResponse } from '../core/errors.ts';

/**
 * The answer to a failure no route answered. An ApiError is its own answer;
 * the database down or busy is the
 * client's to retry (503 with Retry-After; an outage is logged once, not per
 * request); anything else is a 500, logged with its stack.
 */
export function failureResponse(error: unknown, requestId: string, route: string | undefined): Response {
  // Thrown past a route's wrapper (a site's file while the blob store is down): its own answer.
  if (error instanceof ApiError) return errorResponse(error);
  if (isDatabaseUnavailable(error)) {
    noteDatabaseUnavailable();
    return errorResponse('unavailable', 'The database is unavailable; try again in a few seconds.', { 'retry-after': '5' });
  }
  if (isDatabaseBusy(error)) {
    log.warn('database busy', { requestId, route });
    return errorResponse('unavailable', 'The server is busy; try again in a few seconds.', { 'retry-after': '5' });
  }
  log.error('unhandled error', { requestId, route, error: error instanceof Error ? error.stack : String(error) });
  return errorResponse('internal_error', `Something went wrong on our side (request ${requestId}).`);
}
