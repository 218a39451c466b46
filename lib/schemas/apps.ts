// Apps: built from a room page (POST /v1/rooms/{id}/build, in rooms.ts), with
// a preview, a go-live step, promotion, rollback, deploy history, end users,
// an owner link and an export archive. lib/apps holds the implementation.
import { z } from 'zod';
import { INT_MAX, slug, text, timestamp, user } from './common.ts';
import { endpoint } from './endpoint.ts';
import { diff } from './spaces.ts';

const id = text().min(1).max(100);
export const appStatus = z.enum(['draft', 'preview', 'live', 'paused']);
export const appAccess = z.enum(['public', 'code', 'private']);

export const appBuild = z
  .object({
    status: z.enum(['succeeded', 'failed']),
    builder: z.enum(['outline', 'ai']).meta({ description: 'outline: the offline builder; ai: the configured OpenAI-compatible endpoint.' }),
    pageId: z.string().nullable(),
    instructions: z.string().nullable(),
    startedAt: timestamp,
    finishedAt: timestamp,
    version: z.number().int().nullable().meta({ description: 'The preview version this build made; null when it failed.' }),
    log: z.array(z.string()),
    error: z.string().nullable(),
  })
  .meta({ id: 'AppBuild', description: 'The last build of the app.' });

export const app = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.string().meta({ description: 'Always "web": a static web app with tables.' }),
    slug: z.string(),
    status: appStatus,
    room: z.object({ id: z.string(), kind: z.enum(['room', 'live']), name: z.string(), workspace: z.object({ id: z.string(), slug: z.string(), name: z.string() }) }),
    previewSpaceId: z.string(),
    previewVersion: z.number().int(),
    previewUrl: z.string().meta({ description: 'The preview, served as the space (members of the workspace).' }),
    liveVersion: z.number().int().nullable(),
    liveDataSpaceId: z.string().nullable().meta({ description: "The space whose database holds the live data (kind app; made when the app first goes live): query it and read its write log with the space database endpoints." }),
    liveUrl: z.string().nullable(),
    access: appAccess,
    joinCode: z.string().nullable().meta({ description: 'Only for callers who can manage the app.' }),
    build: appBuild,
    canManage: z.boolean(),
    canEdit: z.boolean().meta({ description: "Whether the caller may rebuild the preview and take an owner link (edit in the app's room)." }),
    createdAt: timestamp,
  })
  .meta({ id: 'App' });

export const appDeploy = z
  .object({
    deploy: z.number().int(),
    version: z.number().int(),
    kind: z.enum(['live', 'promote', 'rollback']),
    actor: z.object({ id: z.string(), handle: z.string() }).nullable(),
    current: z.boolean(),
    changes: diff,
    createdAt: timestamp,
  })
  .meta({ id: 'AppDeploy', description: "changes: the app's files (pages, styles, data) added, changed and removed against the version the previous deploy served; the first deploy adds every file." });

export const appEndUser = z
  .object({
    id: z.string(),
    user: user.nullable().meta({ description: 'The person, when they signed in; null for someone who entered the join code.' }),
    via: z.enum(['code', 'sign-in', 'owner-link']),
    firstSeenAt: timestamp,
    lastSeenAt: timestamp,
  })
  .meta({ id: 'AppEndUser' });

export const buildBody = z.object({
  pageId: text().min(1).max(100).optional(),
  instructions: text({ multiline: true }).max(4000).optional(),
  appId: id.optional(),
});

const p = z.object({ id });
const tag = 'Apps';

export const appsApi = {
  list: endpoint({
    method: 'GET',
    path: '/v1/apps',
    summary: 'Apps in rooms the caller can view',
    tag,
    auth: 'user',
    query: z.object({ workspace: slug.optional(), room: id.optional() }),
    response: z.object({ apps: z.array(app) }),
  }),
  get: endpoint({ method: 'GET', path: '/v1/apps/{id}', summary: 'An app', tag, auth: 'user', params: p, response: app, errors: [404] }),
  patch: endpoint({
    method: 'PATCH',
    path: '/v1/apps/{id}',
    summary: "Rename, change access, renew the join code, pause or resume",
    tag,
    auth: 'user',
    params: p,
    body: z.object({ name: text().min(1).max(100).optional(), access: appAccess.optional(), newJoinCode: z.boolean().optional(), paused: z.boolean().optional() }),
    response: app,
    errors: [403, 404, 409],
  }),
  delete: endpoint({ method: 'DELETE', path: '/v1/apps/{id}', summary: 'Delete an app, its versions and data', tag, auth: 'user', params: p, response: null, errors: [403, 404] }),
  live: endpoint({
    method: 'POST',
    path: '/v1/apps/{id}/live',
    summary: 'Put the preview live (first time; the plan limits live apps)',
    tag,
    auth: 'user',
    params: p,
    body: z.object({ access: appAccess.default('code'), copyData: z.boolean().default(false) }),
    response: app,
    errors: [403, 404, 409],
  }),
  promote: endpoint({ method: 'POST', path: '/v1/apps/{id}/promote', summary: 'Make the latest preview version live', tag, auth: 'user', params: p, response: app, errors: [403, 404, 409] }),
  rollback: endpoint({
    method: 'POST',
    path: '/v1/apps/{id}/rollback',
    summary: 'Serve the version of an earlier deploy',
    tag,
    auth: 'user',
    params: p,
    body: z.object({ deploy: z.number().int().min(1).max(INT_MAX) }),
    response: app,
    errors: [403, 404, 409],
  }),
  deploys: endpoint({ method: 'GET', path: '/v1/apps/{id}/deploys', summary: 'Deploy history, newest first', tag, auth: 'user', params: p, response: z.object({ deploys: z.array(appDeploy) }), errors: [404] }),
  users: endpoint({ method: 'GET', path: '/v1/apps/{id}/users', summary: "The live app's end users", tag, auth: 'user', params: p, response: z.object({ users: z.array(appEndUser) }), errors: [403, 404] }),
  ownerLink: endpoint({
    method: 'POST',
    path: '/v1/apps/{id}/owner-link',
    summary: 'A signed administrator link into the live app (10 minutes, single use)',
    tag,
    auth: 'user',
    params: p,
    response: z.object({ url: z.string(), expiresAt: timestamp }),
    errors: [403, 404, 409],
  }),
  export: endpoint({
    method: 'GET',
    path: '/v1/apps/{id}/export',
    summary: 'A zip of a deployable project: files, data as SQL, a server without dependencies',
    tag,
    auth: 'user',
    params: p,
    response: null,
    status: 200,
    errors: [403, 404],
  }),
};

export type App = z.infer<typeof app>;
export type AppBuild = z.infer<typeof appBuild>;
export type AppDeploy = z.infer<typeof appDeploy>;
export type AppEndUser = z.infer<typeof appEndUser>;
