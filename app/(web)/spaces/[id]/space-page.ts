// The space pages' shared load: the layout and the tab page below it ask for
// the same space in one request, so it is loaded once (React's cache). A
// space the person may not see is the 404 page; a signed-out visitor of a
// members-only space is sent to sign in first, and a visitor of a
// password-protected one to the page that says where its password goes.
import { redirect, notFound } from 'next/navigation';
import { cache } from 'react';
import type { Caller } from '@/lib/core/caller.ts';
import { ApiError } from '@/lib/core/errors.ts';
import type { Space } from '@/lib/schemas/spaces.ts';
import { getSpace } from '@/lib/spaces/spaces.ts';
import { pageCaller } from '@/server/http/session.ts';

export const spacePage = cache(async (id: string): Promise<{ caller: Caller; space: Space }> => {
  const caller = await pageCaller();
  let space: Space;
  try {
    space = await getSpace(caller, id);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'not_found')) throw error;
    if (!caller.actor) redirect(`/signin?next=${encodeURIComponent(`/spaces/${id}`)}`);
    notFound();
  }
  // A protected space's record is shown to anyone, its files only with the password.
  if (!space.permissions.view) redirect(`/protected/${encodeURIComponent(id)}`);
  return { caller, space };
});
