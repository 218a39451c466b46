import { z } from 'zod';
import { handle, text, user } from './common.ts';
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
  name: text().max(100).optional(),
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
  deleteMe: endpoint({
    method: 'DELETE',
    path: '/v1/me',
    tag: 'Account',
    summary:
      'Delete the account: workspaces with no other member go with everything in them, shared workspaces the caller alone owns pass to their earliest other member',
    auth: 'user',
    response: null,
    errors: [401],
  }),
  block: endpoint({
    method: 'POST',
    path: '/v1/me/blocks',
    tag: 'Account',
    summary: 'Block a user (idempotent)',
    auth: 'user',
    body: z.object({ userId: text().min(1).max(100) }),
    response: null,
    errors: [400, 401, 404],
  }),
  unblock: endpoint({
    method: 'DELETE',
    path: '/v1/me/blocks/{userId}',
    tag: 'Account',
    summary: 'Unblock a user (idempotent)',
    auth: 'user',
    params: z.object({ userId: text().min(1).max(100) }),
    response: null,
    errors: [401],
  }),
  preferences: endpoint({
    method: 'PATCH',
    path: '/v1/me/preferences',
    tag: 'Account',
    summary: 'Change preferences',
    auth: 'user',
    body: z.object({ developerMode: z.boolean().optional() }),
    response: preferences,
    errors: [400, 401],
  }),
  profile: endpoint({
    method: 'PATCH',
    path: '/v1/me/profile',
    tag: 'Account',
    summary: 'Change the display name shown beside the handle (null clears it)',
    auth: 'user',
    body: z.object({ name: text().trim().min(1).max(100).nullable().meta({ description: 'The display name, 1 to 100 characters after trimming; null clears it.' }) }),
    response: user,
    errors: [400, 401],
  }),
  handle: endpoint({
    method: 'PATCH',
    path: '/v1/me/handle',
    tag: 'Account',
    summary: "Change the handle; the personal workspace's slug (and its name, if unchanged) follow",
    auth: 'user',
    body: z.object({ handle }),
    response: user,
    errors: [400, 401, 409],
  }),
};

export type User = z.infer<typeof user>;
export type CurrentUser = z.infer<typeof currentUser>;
export type Preferences = z.infer<typeof preferences>;
