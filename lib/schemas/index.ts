// The route table: every endpoint of the API, in the order of the document.
import { accountsApi } from './accounts.ts';
import { authApi } from './auth.ts';
import type { Endpoint } from './endpoint.ts';
import { spacedbApi } from './spacedb.ts';
import { spacesApi } from './spaces.ts';
import { workspacesApi } from './workspaces.ts';

export const endpoints: Endpoint[] = [
  ...Object.values(accountsApi),
  ...Object.values(authApi),
  ...Object.values(workspacesApi),
  ...Object.values(spacesApi),
  ...Object.values(spacedbApi),
];
