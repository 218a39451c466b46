// Calling the space database routes as a client would.
import { GET as overviewRoute } from '@/app/v1/spaces/[id]/db/route.ts';
import { GET as existsRoute } from '@/app/v1/spaces/[id]/db/exists/route.ts';
import { GET as exportRoute } from '@/app/v1/spaces/[id]/db/export/route.ts';
import { GET as getGuestRoute, PUT as putGuestRoute } from '@/app/v1/spaces/[id]/db/guest-writes/route.ts';
import { POST as queryRoute } from '@/app/v1/spaces/[id]/db/query/route.ts';
import { POST as resetRoute } from '@/app/v1/spaces/[id]/db/reset/route.ts';
import { POST as restoreRoute } from '@/app/v1/spaces/[id]/db/restore/route.ts';
import { GET as writesRoute } from '@/app/v1/spaces/[id]/db/writes/route.ts';
import { call } from '../helpers.ts';

type Who = { token?: string; headers?: Record<string, string> };

export function dbClient(spaceId: string) {
  const params = { id: spaceId };
  const base = `/v1/spaces/${spaceId}/db`;
  return {
    query: (who: Who, body: Record<string, unknown>) => call(queryRoute, 'POST', `${base}/query`, { ...who, params, body }),
    overview: (who: Who) => call(overviewRoute, 'GET', base, { ...who, params }),
    exists: (who: Who) => call(existsRoute, 'GET', `${base}/exists`, { ...who, params }),
    getGuestWrites: (who: Who) => call(getGuestRoute, 'GET', `${base}/guest-writes`, { ...who, params }),
    putGuestWrites: (who: Who, statements: { name: string; sql: string }[]) => call(putGuestRoute, 'PUT', `${base}/guest-writes`, { ...who, params, body: { statements } }),
    writes: (who: Who, limit?: number) => call(writesRoute, 'GET', `${base}/writes${limit ? `?limit=${limit}` : ''}`, { ...who, params }),
    export: (who: Who) => call(exportRoute, 'GET', `${base}/export`, { ...who, params }),
    reset: (who: Who) => call(resetRoute, 'POST', `${base}/reset`, { ...who, params }),
    restore: (who: Who, at: number | string) => call(restoreRoute, 'POST', `${base}/restore`, { ...who, params, body: { at } }),
  };
}

/** Runs SQL and insists on 200. */
export async function sql(client: ReturnType<typeof dbClient>, token: string, text: string, params: unknown[] = [], write = true) {
  const answer = await client.query({ token }, { sql: text, params, write });
  if (answer.status !== 200) throw new Error(`${answer.status} ${answer.text}`);
  return answer.json as { columns: string[]; rows: unknown[][]; rowsRead: number; rowsWritten: number; truncated: boolean };
}
