import { updatePreferences } from '@/lib/accounts/users.ts';
import { route } from '@/server/http/route.ts';
import { accountsApi } from '@/lib/schemas/accounts.ts';

export const PATCH = route(accountsApi.preferences, async ({ caller, body }) => updatePreferences(caller, body));
