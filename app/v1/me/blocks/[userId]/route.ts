import { unblockUser } from '@/lib/accounts/blocks.ts';
import { route } from '@/server/http/route.ts';
import { accountsApi } from '@/lib/schemas/accounts.ts';

export const DELETE = route(accountsApi.unblock, async ({ caller, params }) => unblockUser(caller, params.userId));
