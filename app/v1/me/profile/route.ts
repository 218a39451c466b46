import { setDisplayName } from '@/lib/accounts/profile.ts';
import { route } from '@/server/http/route.ts';
import { accountsApi } from '@/lib/schemas/accounts.ts';

export const PATCH = route(accountsApi.profile, async ({ caller, body }) => setDisplayName(caller, body.name));
