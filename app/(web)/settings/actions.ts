'use server';

import { handleProblem } from '@/lib/accounts/handles.ts';
import { pageCaller } from '@/server/http/session.ts';

/** What PATCH /v1/me/handle would say about `handle`, for checking as the person types. */
export async function checkHandle(handle: string): Promise<string | null> {
  const caller = await pageCaller();
  const { actor } = caller;
  if (!actor) return 'Your session has ended; sign in again.';
  if (handle === actor.user.handle) return null;
  return (await handleProblem(actor.user.id, handle))?.message ?? null;
}
