// The route table: every endpoint of the API, in the order of the document.
import { accountsApi } from './accounts.ts';
import { appsApi } from './apps.ts';
import { authApi } from './auth.ts';
import { billingApi } from './billing.ts';
import { commentsApi } from './comments.ts';
import type { Endpoint } from './endpoint.ts';
import { notificationsApi } from './notifications.ts';
import { liveSpacesApi, roomsApi } from './rooms.ts';
import { searchApi } from './search.ts';
import { spacedbApi } from './spacedb.ts';
import { spacesApi } from './spaces.ts';
import { webhooksApi } from './webhooks.ts';
import { workspacesApi } from './workspaces.ts';

export const endpoints: Endpoint[] = [
  ...Object.values(accountsApi),
  ...Object.values(authApi),
  ...Object.values(workspacesApi),
  ...Object.values(spacesApi),
  ...Object.values(billingApi),
  ...Object.values(commentsApi),
  ...Object.values(roomsApi),
  ...Object.values(liveSpacesApi),
  ...Object.values(spacedbApi),
  ...Object.values(appsApi),
  ...Object.values(webhooksApi),
  ...Object.values(searchApi),
  ...Object.values(notificationsApi),
];
