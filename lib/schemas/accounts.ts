import { z } from 'zod';
import { handle, user } from './common.ts';
import { endpoint } from './endpoint.ts';
import { workspaceSummary } from './workspaces.ts';

export const preferences = z.object({ developerMode: z.boolean() }).meta({ id: 'Preferences' });

export const currentUser = z
  .object({
    user,
    workspaces: z.array(workspaceSummary).meta({ description: 'Accepted memberships, oldest first.' }),
    invites: z.array(workspaceSummary).meta({ description: 'Pending invitations, with the offered role.' }),
    preferences,
    blocked: z.array(z.string()).meta({ description: 'Ids of blocked users.' }),
  })
  .meta({ id: 'CurrentUser' });

export const devLoginBody = z.object({
  handle,
  name: z.string().max(100).optional(),
  label: z.enum(['cli', 'web']).default('cli'),
});

export const tokenResult = z.object({ token: z.string(), user }).meta({ id: 'TokenResult' });

export const accountsApi = {
  devLogin: endpoint({
    method: 'POST',
    path: '/v1/auth/dev-login',
    tag: 'Sign-in',
    summary: 'Sign in by handle without a password (only when the server runs with DEV_AUTH=true)',
    auth: 'anonymous',
    body: devLoginBody,
    response: tokenResult,
    errors: [400, 404],
  }),
  me: endpoint({
    method: 'GET',
    path: '/v1/me',
    tag: 'Account',
    summary: 'The signed-in user, their workspaces, invitations, preferences and blocks',
    auth: 'user',
    response: currentUser,
    errors: [401],
  }),
};

export type User = z.infer<typeof user>;
export type CurrentUser = z.infer<typeof currentUser>;
