// Workspaces built through the API, as people would build them.
import { POST as acceptRoute } from '@/app/v1/workspaces/[slug]/accept/route.ts';
import { POST as inviteRoute } from '@/app/v1/workspaces/[slug]/members/route.ts';
import { POST as createRoute } from '@/app/v1/workspaces/route.ts';
import { db } from '@/lib/db/client.ts';
import type { Plan } from '@/lib/db/generated/client.ts';
import { call, signIn } from '../helpers.ts';

export type Role = 'owner' | 'admin' | 'member' | 'viewer';
export type Person = Awaited<ReturnType<typeof signIn>>;

export async function expectStatus(promise: ReturnType<typeof call>, status: number) {
  const result = await promise;
  if (result.status !== status) throw new Error(`expected ${status}, got ${result.status}: ${result.text}`);
  return result;
}

/** A workspace `slug` on `plan` owned by `owner`, with each other person a member in the given role. */
export async function team(slug: string, owner: Person, members: [Person, Role][] = [], plan: Plan = 'pro') {
  await expectStatus(call(createRoute, 'POST', '/v1/workspaces', { token: owner.token, body: { slug, name: `Team ${slug}` } }), 200);
  await db.workspace.update({ where: { slug }, data: { plan } });
  for (const [person, role] of members) {
    await expectStatus(
      call(inviteRoute, 'POST', `/v1/workspaces/${slug}/members`, { token: owner.token, params: { slug }, body: { handle: person.user.handle, role } }),
      204,
    );
    await expectStatus(call(acceptRoute, 'POST', `/v1/workspaces/${slug}/accept`, { token: person.token, params: { slug } }), 204);
  }
}
