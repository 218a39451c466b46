import { changeHandle } from '@/lib/accounts/handles.ts';
import { route } from '@/server/http/route.ts';
import { accountsApi } from '@/lib/schemas/accounts.ts';

export const PATCH = route(accountsApi.handle, async ({ caller, body }) => changeHandle(caller, body.handle));
