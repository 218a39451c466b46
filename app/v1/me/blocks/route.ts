import { blockUser } from '@/lib/accounts/blocks.ts';
import { route } from '@/server/http/route.ts';
import { accountsApi } from '@/lib/schemas/accounts.ts';

export const POST = route(accountsApi.block, async ({ caller, body }) => blockUser(caller, body.userId));
