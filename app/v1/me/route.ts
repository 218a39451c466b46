import { currentUser } from '@/lib/accounts/users.ts';
import { route } from '@/lib/http/route.ts';
import { accountsApi } from '@/lib/schemas/accounts.ts';

export const GET = route(accountsApi.me, async ({ actor }) => currentUser(actor.user.id));
