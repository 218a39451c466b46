// Handles and workspace slugs share one namespace (a personal workspace's slug
// is its owner's handle). Reserved names are those of top-level routes and
// pages, and names that would mislead if someone else held them.
import { ApiError } from '../http/errors.ts';

export const RESERVED_HANDLES = new Set([
  'about', 'account', 'admin', 'administrator', 'api', 'app', 'apps', 'assets', 'atrium', 'auth',
  'billing', 'blog', 'cli', 'dashboard', 'device', 'dl', 'docs', 'download', 'downloads', 'help',
  'invite', 'invites', 'live', 'live-spaces', 'login', 'logout', 'me', 'new', 'openapi', 'reference',
  'root', 'rooms', 'security', 'settings', 'sign-in', 'sign-out', 'signin', 'signout', 'signup',
  'spaces', 'static', 'status', 'support', 'system', 'tokens', 'v1', 'v2', 'workspace-invites',
  'workspaces', 'www',
]);

export function assertHandleAllowed(handle: string): void {
  if (RESERVED_HANDLES.has(handle)) throw new ApiError('bad_request', `The handle "${handle}" is reserved.`);
}
