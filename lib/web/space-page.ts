// The space pages' shared load: the layout and the tab page below it ask for
// the same space in one request, so it is loaded once (React's cache). A
// space the person may not see is the 404 page; a signed-out visitor of a
// members-only space is sent to sign in first, and a visitor of a
// password-protected one to the page that says where its password goes.
import { redirect, notFound } from 'next/navigation';
import { cache } from 'react';
import type { Caller } from '../core/caller.ts';
import { pageCaller } from '../../server/http/session.ts';
import { ApiError } from '../core/errors.ts';
import type { Space } from '../schemas/spaces.ts';
import { getSpace } from '../spaces/spaces.ts';

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

export type SearchParams = Record<string, string | string[] | undefined>;

export const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);
export const versionNumber = (value: string | undefined) => (value && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : undefined);

/** A space page's address with query parameters (empty ones left out). */
export function spaceHref(id: string, tab: string, params: Record<string, string | number | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') query.set(key, String(value));
  const text = query.toString();
  return `/spaces/${id}${tab ? `/${tab}` : ''}${text ? `?${text}` : ''}`;
}
