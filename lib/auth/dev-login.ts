// Sign-in by handle alone, for development and tests. The route answers 404
// unless the server runs with DEV_AUTH=true.
import { createUser, findUserByHandle } from '../accounts/users.ts';
import { config } from '../config.ts';
import { db, Prisma } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';
import type { User } from '../schemas/accounts.ts';
import { issueToken } from './tokens.ts';

export async function devLogin(input: { handle: string; name?: string; label: 'cli' | 'web' }): Promise<{ token: string; user: User }> {
  if (!config.devAuth) throw new ApiError('not_found', 'No such route.');
  let user = await findUserByHandle(input.handle);
  if (!user) {
    try {
      user = await createUser({ handle: input.handle, name: input.name });
    } catch (error) {
      // Someone else took the handle (or a workspace holds the slug) meanwhile.
      if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')) throw error;
      user = await findUserByHandle(input.handle);
      if (!user) throw new ApiError('conflict', `The handle "${input.handle}" is taken by a workspace.`);
    }
  } else if (input.name !== undefined && input.name !== user.name) {
    user = await db.user.update({ where: { id: user.id }, data: { name: input.name }, select: { id: true, handle: true, name: true } });
  }
  const token = await issueToken(user.id, input.label === 'web' ? 'web' : 'api', input.label);
  return { token, user };
}
