import { deleteAccount } from '@/lib/accounts/deletion.ts';
import { currentUser } from '@/lib/accounts/users.ts';
import { route } from '@/server/http/route.ts';
import { accountsApi } from '@/lib/schemas/accounts.ts';

export const GET = route(accountsApi.me, async ({ caller }) => currentUser(caller));

export const DELETE = route(accountsApi.deleteMe, async ({ caller }) => deleteAccount(caller));
