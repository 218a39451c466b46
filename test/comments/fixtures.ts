// Shared steps of the comment tests: the seven routes called as clients call
// them, a workspace with people in each role, and guest keys.
import { randomBytes } from 'node:crypto';
import { DELETE as deleteRoute, PATCH as editRoute } from '@/app/v1/comments/[id]/route.ts';
import { POST as resolveRoute } from '@/app/v1/comments/[id]/resolve/route.ts';
import { GET as revisionsRoute } from '@/app/v1/comments/[id]/revisions/route.ts';
import { POST as unresolveRoute } from '@/app/v1/comments/[id]/unresolve/route.ts';
import { GET as headRoute } from '@/app/v1/spaces/[id]/head/route.ts';
import { GET as listRoute, POST as createRoute } from '@/app/v1/spaces/[id]/comments/route.ts';
import { PATCH as patchSpaceRoute } from '@/app/v1/spaces/[id]/route.ts';
import { POST as acceptRoute } from '@/app/v1/workspaces/[slug]/accept/route.ts';
import { POST as addMemberRoute } from '@/app/v1/workspaces/[slug]/members/route.ts';
import { call, signIn, type CallOptions } from '../helpers.ts';

type As = Omit<CallOptions, 'body' | 'params'>;

export const guestKey = () => randomBytes(24).toString('base64url');

export const comments = {
  list: (id: string, query: Record<string, string> = {}, as: As = {}) =>
    call(listRoute, 'GET', `/v1/spaces/${id}/comments?${new URLSearchParams(query)}`, { ...as, params: { id } }),
  create: (id: string, body: Record<string, unknown>, as: As = {}) => call(createRoute, 'POST', `/v1/spaces/${id}/comments`, { ...as, body, params: { id } }),
  edit: (id: string, body: Record<string, unknown>, as: As = {}) => call(editRoute, 'PATCH', `/v1/comments/${id}`, { ...as, body, params: { id } }),
  remove: (id: string, body: Record<string, unknown> | undefined, as: As = {}) => call(deleteRoute, 'DELETE', `/v1/comments/${id}`, { ...as, body, params: { id } }),
  revisions: (id: string, as: As = {}) => call(revisionsRoute, 'GET', `/v1/comments/${id}/revisions`, { ...as, params: { id } }),
  resolve: (id: string, as: As = {}) => call(resolveRoute, 'POST', `/v1/comments/${id}/resolve`, { ...as, params: { id } }),
  unresolve: (id: string, as: As = {}) => call(unresolveRoute, 'POST', `/v1/comments/${id}/unresolve`, { ...as, params: { id } }),
  head: async (id: string, as: As = {}) => (await call(headRoute, 'GET', `/v1/spaces/${id}/head`, { ...as, params: { id } })).json as { commentsUpdatedAt: number },
};

export async function patchSpace(token: string, id: string, body: Record<string, unknown>) {
  const answer = await call(patchSpaceRoute, 'PATCH', `/v1/spaces/${id}`, { token, body, params: { id } });
  if (answer.status !== 200) throw new Error(`patch space: ${answer.status} ${answer.text}`);
  return answer.json;
}

/** Signs `handle` in and makes them an accepted member of `slug` in `role`. */
export async function member(ownerToken: string, slug: string, handle: string, role: 'admin' | 'member' | 'viewer') {
  const person = await signIn(handle);
  const added = await call(addMemberRoute, 'POST', `/v1/workspaces/${slug}/members`, { token: ownerToken, body: { handle, role }, params: { slug } });
  if (added.status !== 204) throw new Error(`add member: ${added.status} ${added.text}`);
  const accepted = await call(acceptRoute, 'POST', `/v1/workspaces/${slug}/accept`, { token: person.token, params: { slug } });
  if (accepted.status !== 204) throw new Error(`accept: ${accepted.status} ${accepted.text}`);
  return person;
}
