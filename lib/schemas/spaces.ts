import { z } from 'zod';
import { INT_MAX, SHA256_PATTERN, mediaType, text, timestamp, user, wholeNumber } from './common.ts';
import { endpoint } from './endpoint.ts';

const tag = 'Spaces';
const publishing = 'Spaces: publishing';
const uploadsTag = 'Spaces: uploads';

/** What a version's rule files gave (lib/spaces/site-rules.ts). */
export const siteRulesSummary = z
  .object({
    redirects: z.number().int().meta({ description: 'Rules taken from `_redirects`.' }),
    headers: z.number().int().meta({ description: 'Path rules taken from `_headers`.' }),
    ignored: z.array(z.object({ file: z.enum(['_redirects', '_headers']), line: z.number().int(), reason: z.string() })).meta({ description: 'Lines left out, and why: the first 100.' }),
    ignoredCount: z.number().int().meta({ description: 'How many lines were left out in all.' }),
  })
  .meta({ id: 'SiteRules' });

const spaceId = text().min(1).max(100);
export const sha256 = text().regex(SHA256_PATTERN, 'must be 64 lowercase hexadecimal characters (a SHA-256)');
const idParams = z.object({ id: spaceId });
/** `{path...}`: Next gives the rest of the path as its segments. */
const pathParams = z.object({ id: spaceId, path: z.array(text()).min(1) });
const versionQuery = z.object({
  v: wholeNumber(1, INT_MAX, 'must be a version number')
    .optional()
    .meta({ description: 'Version number; the latest when absent.' }),
});

export const visibility = z.enum(['public', 'members']);
export const permissions = z
  .object({ view: z.boolean(), comment: z.boolean(), push: z.boolean(), manage: z.boolean(), admin: z.boolean() })
  .meta({ id: 'SpacePermissions', description: "What the caller may do with the space." });

export const space = z
  .object({
    id: z.string(),
    name: z.string(),
    workspace: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
    visibility,
    guestComments: z.boolean(),
    guestWrites: z.boolean(),
    viewers: z
      .object({ users: z.array(user) })
      .meta({ description: 'People outside the workspace who may view the space; listed only to callers who can push.' }),
    passwordProtected: z.boolean(),
    latestVersion: z.number().int().meta({ description: '0 before the first version.' }),
    path: z.string().meta({ description: "The space's page in the web app." }),
    url: z.string().meta({ description: 'Where the latest version is served to visitors.' }),
    shareUrl: z.string().nullable().meta({ description: 'The url when anyone may open it (public spaces), else null.' }),
    kind: z.enum(['repo', 'room', 'app']),
    permissions,
    createdAt: timestamp,
  })
  .meta({ id: 'Space' });

export const spaceHead = z
  .object({
    latestVersion: z.number().int(),
    commentsUpdatedAt: timestamp,
    uploads: z.number().int(),
    uploadsUpdatedAt: timestamp.meta({ description: '0 when nothing was ever uploaded.' }),
    liveUrl: z.string().optional(),
  })
  .meta({ id: 'SpaceHead' });

export const fileEntry = z
  .object({
    path: text().min(1).meta({ description: 'Relative, "/"-separated; no "..", no empty segments, at most 1024 characters.' }),
    sha256,
    size: z.number().int().min(0),
    contentType: mediaType
      .optional()
      .meta({ description: 'Served Content-Type; guessed from the extension when absent.' }),
  })
  .meta({ id: 'FileEntry' });

/** Files in one version; a body listing them is capped at MANIFEST_BODY_LIMIT. */
export const MAX_VERSION_FILES = 100_000;
export const MANIFEST_BODY_LIMIT = 32 * 1024 * 1024;

const fileList = z.array(fileEntry).max(MAX_VERSION_FILES, `must list at most ${MAX_VERSION_FILES.toLocaleString('en')} files`);

export const fileRecord = z
  .object({ path: z.string(), sha256, size: z.number().int(), contentType: z.string() })
  .meta({ id: 'File' });

export const diff = z
  .object({
    added: z.array(z.string()),
    changed: z.array(z.string()),
    removed: z.array(z.string()),
    unchanged: z.number().int(),
  })
  .meta({ id: 'Diff', description: 'Paths added, changed and removed against the version before (or the base of a comparison), and how many stayed the same.' });

export const version = z
  .object({
    number: z.number().int(),
    message: z.string().nullable(),
    author: user.nullable(),
    createdAt: timestamp,
    fileCount: z.number().int(),
    bytes: z.number().int(),
  })
  .meta({ id: 'Version' });

/** An alias's name: what a branch or pull request is called in a host name (`pr-42`). */
export const ALIAS_PATTERN = /^(?!latest$)[a-z0-9](?:[a-z0-9]|-(?!-)){0,29}$/;
export const aliasName = text()
  .regex(ALIAS_PATTERN, 'must be 1 to 30 lowercase letters, digits and single hyphens, starting with a letter or digit, and not "latest"')
  .meta({ description: 'Lowercase letters, digits and single hyphens, up to 30; `latest` is the version the space serves by default.' });

export const alias = z
  .object({
    name: z.string(),
    version: z.number().int(),
    url: z.string().meta({ description: "Where the alias's version is served." }),
    updatedAt: timestamp,
    updatedBy: user.nullable(),
  })
  .meta({ id: 'Alias' });

export const spaceDomain = z
  .object({
    hostname: z.string(),
    status: z.enum(['pending', 'active']).meta({ description: 'active once verified: then the site is served at the name.' }),
    url: z.string().meta({ description: 'The site at the name (https: TLS is the proxy in front, see docs/deploy.md).' }),
    verification: z.object({
      token: z.string(),
      record: z
        .object({ type: z.literal('TXT'), name: z.string(), value: z.string() })
        .meta({ description: 'The DNS record that proves the name is yours: verifying looks it up. It may stay once verified.' }),
    }),
    verifiedAt: timestamp.nullable(),
    expiresAt: timestamp.nullable().meta({ description: 'When a pending claim expires unverified (7 days after it was added); null once active.' }),
    createdAt: timestamp,
  })
  .meta({ id: 'SpaceDomain' });

const hostnameParam = text().min(1).max(253);

export const fileRead = z
  .object({
    versionNumber: z.number().int(),
    file: fileRecord.extend({
      text: z.boolean().meta({ description: 'False for binary files, whose content is empty: fetch rawUrl instead.' }),
      truncated: z.boolean().meta({ description: 'True when a text file is longer than 1 MiB and content holds its first 1 MiB.' }),
    }),
    content: z.string(),
    rawUrl: z.string().nullable(),
  })
  .meta({ id: 'FileRead' });

export const historyEntry = z
  .object({
    version: z.number().int(),
    change: z.enum(['added', 'changed', 'removed']),
    sha256: sha256.nullable(),
    size: z.number().int().nullable(),
    message: z.string().nullable(),
    author: user.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'HistoryEntry' });

export const downloadLink = z.object({ url: z.string(), expiresAt: timestamp }).meta({ id: 'DownloadLink' });

export const upload = z
  .object({
    id: z.string(),
    name: z.string(),
    size: z.number().int(),
    sha256,
    contentType: z.string(),
    uploadedBy: user.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: 'Upload' });

const named = z.object({ name: text().min(1).max(255) });
const count = z.object({ label: z.string(), views: z.number().int() });

export const visitorStats = z
  .object({
    days: z.number().int(),
    views: z.number().int(),
    visitors: z.number().int().meta({ description: 'Sum of the daily unique visitors (uniqueness is only known within a day).' }),
    signedIn: z.number().int().meta({ description: 'Distinct signed-in people.' }),
    daily: z.array(z.object({ date: z.string(), views: z.number().int(), visitors: z.number().int() })),
    countries: z.array(count),
    referrers: z.array(count),
    pages: z.array(count),
    aliases: z.array(count).meta({ description: 'Views that came through an alias (a preview address), by alias.' }),
    people: z.array(z.object({ user, views: z.number().int(), lastSeenAt: timestamp })),
    recent: z.array(
      z.object({
        at: timestamp,
        path: z.string(),
        version: z.number().int().nullable(),
        alias: z.string().nullable().meta({ description: 'The alias the visitor came through, null for the space’s own address.' }),
        country: z.string().nullable(),
        referrer: z.string().nullable(),
        user: user.nullable(),
      }),
    ),
  })
  .meta({ id: 'VisitorStats' });

export const patchSpaceBody = z.object({
  name: named.shape.name.optional(),
  visibility: visibility.optional(),
  guestComments: z.boolean().optional(),
  guestWrites: z.boolean().optional(),
  viewers: z
    .object({ handles: z.array(text().min(1).max(39)).max(500) })
    .optional()
    .meta({ description: 'Replaces the list of viewers, by handle.' }),
  password: text().min(1).max(200).nullable().optional().meta({ description: 'A password for visitors of a public space; null removes it.' }),
});

export const spacesApi = {
  list: endpoint({
    method: 'GET',
    path: '/v1/spaces',
    tag,
    summary: "A workspace's spaces the caller can see, or every space the caller can push to",
    auth: 'user',
    query: z.object({ workspace: text().min(1).max(100).optional() }),
    response: z.object({ spaces: z.array(space) }),
    errors: [401],
  }),
  create: endpoint({
    method: 'POST',
    path: '/v1/spaces',
    tag,
    summary: 'Create a space in a workspace the caller can push to',
    auth: 'user',
    body: z.object({ workspace: text().min(1).max(100).meta({ description: 'Slug or id.' }), name: named.shape.name, visibility: visibility.default('public') }),
    response: space,
    errors: [400, 401, 403, 404],
  }),
  get: endpoint({ method: 'GET', path: '/v1/spaces/{id}', tag, summary: 'A space', auth: 'optional', params: idParams, response: space, errors: [404] }),
  remove: endpoint({
    method: 'DELETE',
    path: '/v1/spaces/{id}',
    tag,
    summary: 'Delete a space with all its versions, uploads and statistics (workspace owner or admin)',
    auth: 'user',
    params: idParams,
    response: null,
    errors: [401, 403, 404],
  }),
  patch: endpoint({
    method: 'PATCH',
    path: '/v1/spaces/{id}',
    tag,
    summary: "Change a space's name, visibility, guest rights, viewers or password (manage)",
    auth: 'user',
    params: idParams,
    body: patchSpaceBody,
    response: space,
    errors: [400, 401, 403, 404],
  }),
  head: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/head',
    tag,
    summary: 'What changed lately: latest version, comments and uploads',
    auth: 'optional',
    params: idParams,
    response: spaceHead,
    errors: [401, 404],
  }),
  unlock: endpoint({
    method: 'POST',
    path: '/v1/spaces/{id}/unlock',
    tag,
    summary: 'Open a password-protected public space: a token for the X-Space-Token header or the site',
    auth: 'optional',
    params: idParams,
    body: z.object({ password: text().max(200) }),
    response: z.object({ token: z.string(), exp: timestamp }).meta({ id: 'SpaceUnlock' }),
    errors: [400, 401, 404, 429],
  }),
  views: endpoint({
    method: 'POST',
    path: '/v1/spaces/{id}/views',
    tag,
    summary: 'Record a page view (not counted for people who can push)',
    auth: 'optional',
    params: idParams,
    body: z.object({
      path: text().min(1).max(1024),
      version: z.number().int().min(1).max(INT_MAX).nullable().optional(),
      referrer: text().max(2048).nullable().optional(),
    }),
    response: null,
    errors: [400, 401, 404, 429],
  }),
  visitors: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/visitors',
    tag,
    summary: 'Visitor statistics (push)',
    auth: 'user',
    params: idParams,
    query: z.object({
      days: text()
        .regex(/^\d{1,2}$/, 'must be a whole number from 1 to 90')
        .transform(Number)
        .refine((n) => n >= 1 && n <= 90, 'must be a whole number from 1 to 90')
        .default(30),
    }),
    response: visitorStats,
    errors: [400, 401, 403, 404],
  }),
  plan: endpoint({
    method: 'POST',
    path: '/v1/spaces/{id}/push/plan',
    tag: publishing,
    summary: 'Compare a full file list with the latest version: which blobs to upload, and the diff',
    auth: 'user',
    params: idParams,
    body: z.object({ files: fileList }),
    maxBodyBytes: MANIFEST_BODY_LIMIT,
    response: z.object({ baseVersion: z.number().int(), missing: z.array(z.string()), diff }).meta({ id: 'PushPlan' }),
    errors: [400, 401, 403, 404, 413],
  }),
  putBlob: endpoint({
    method: 'PUT',
    path: '/v1/spaces/{id}/blobs/{sha256}',
    tag: publishing,
    summary: "Upload a file's bytes (raw body); refused with 400 when they do not match the hash",
    auth: 'user',
    checksOwnToken: true,
    params: z.object({ id: spaceId, sha256 }),
    response: null,
    errors: [400, 401, 403, 404, 413],
  }),
  commit: endpoint({
    method: 'POST',
    path: '/v1/spaces/{id}/versions',
    tag: publishing,
    summary: 'Commit a version from a full file list; all or nothing',
    auth: 'user',
    params: idParams,
    body: z.object({
      files: fileList,
      message: text({ multiline: true }).max(1000).optional(),
      alias: aliasName.optional().meta({ description: 'Point this alias at the version (the latest one when nothing changed), in the same transaction.' }),
    }),
    maxBodyBytes: MANIFEST_BODY_LIMIT,
    response: z
      .object({
        version: version.nullable().meta({ description: 'null when nothing changed.' }),
        diff,
        url: z.string(),
        alias: alias.optional().meta({ description: 'The alias the commit moved, when it named one.' }),
        rules: siteRulesSummary.optional().meta({ description: "The new version's `_redirects` and `_headers`: rules taken and lines left out. Absent when it has neither." }),
      })
      .meta({ id: 'VersionCommit' }),
    errors: [400, 401, 403, 404, 409, 413],
  }),
  versions: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/versions',
    tag: publishing,
    summary: 'Versions, newest first',
    auth: 'optional',
    params: idParams,
    response: z.object({ versions: z.array(version) }),
    errors: [401, 404],
  }),
  aliases: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/aliases',
    tag: publishing,
    summary: "The space's aliases (named addresses of versions, for previews), by name",
    auth: 'optional',
    params: idParams,
    response: z.object({ aliases: z.array(alias) }),
    errors: [401, 404],
  }),
  setAlias: endpoint({
    method: 'PUT',
    path: '/v1/spaces/{id}/aliases/{name}',
    tag: publishing,
    summary: 'Point an alias at a version, creating it if needed (needs push); the move is atomic',
    auth: 'user',
    params: z.object({ id: spaceId, name: aliasName }),
    body: z.object({ version: z.number().int().min(1).meta({ description: 'A version of the space.' }) }),
    response: alias,
    errors: [400, 401, 403, 404],
  }),
  deleteAlias: endpoint({
    method: 'DELETE',
    path: '/v1/spaces/{id}/aliases/{name}',
    tag: publishing,
    summary: 'Remove an alias (needs push); its address stops serving at once',
    auth: 'user',
    params: z.object({ id: spaceId, name: aliasName }),
    response: null,
    errors: [401, 403, 404],
  }),
  domains: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/domains',
    tag: 'Spaces: domains',
    summary: "The space's custom domains (admin)",
    auth: 'user',
    params: idParams,
    response: z.object({ domains: z.array(spaceDomain) }),
    errors: [401, 403, 404],
  }),
  addDomain: endpoint({
    method: 'POST',
    path: '/v1/spaces/{id}/domains',
    tag: 'Spaces: domains',
    summary: 'Add a custom domain (admin); it serves the site once verified',
    auth: 'user',
    params: idParams,
    body: z.object({ hostname: text().min(1).max(253).meta({ description: 'A host name of yours, e.g. docs.example.com.' }) }),
    response: spaceDomain,
    errors: [400, 401, 403, 404, 409],
  }),
  verifyDomain: endpoint({
    method: 'POST',
    path: '/v1/spaces/{id}/domains/{hostname}/verify',
    tag: 'Spaces: domains',
    summary: "Look up the claim's TXT record (admin): active when it is there; 409 says what was looked up and found, and when the name is verified for another space",
    auth: 'user',
    params: z.object({ id: spaceId, hostname: hostnameParam }),
    response: spaceDomain,
    errors: [401, 403, 404, 409, 429],
  }),
  deleteDomain: endpoint({
    method: 'DELETE',
    path: '/v1/spaces/{id}/domains/{hostname}',
    tag: 'Spaces: domains',
    summary: 'Remove a custom domain (admin); it stops serving at once',
    auth: 'user',
    params: z.object({ id: spaceId, hostname: hostnameParam }),
    response: null,
    errors: [401, 403, 404],
  }),
  domainCheck: endpoint({
    method: 'GET',
    path: '/v1/domains/check',
    tag: 'Spaces: domains',
    summary: "Whether a name is a verified custom domain of a published space here: the `ask` of Caddy's on-demand TLS (200 or 404)",
    auth: 'anonymous',
    query: z.object({ domain: text().min(1).max(253) }),
    response: z.object({ domain: z.string(), active: z.literal(true) }),
    errors: [400, 404],
  }),
  version: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/versions/{n}',
    tag: publishing,
    summary: 'One version with its files and its diff against the one before',
    auth: 'optional',
    params: z.object({
      id: spaceId,
      // One schema rather than a union, so that the answer says what n must be.
      n: text()
        .regex(/^(latest|[1-9]\d{0,9})$/, 'must be a version number or "latest"')
        .transform((n) => (n === 'latest' ? n : Number(n)))
        .refine((n) => n === 'latest' || n <= INT_MAX, 'must be a version number or "latest"'),
    }),
    response: z.object({ version, files: z.array(fileRecord), diff }).meta({ id: 'VersionDetail' }),
    errors: [400, 401, 404],
  }),
  compare: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/compare',
    tag: publishing,
    summary: 'What changed between any two versions: the paths added, changed and removed going from `base` to `head`',
    auth: 'optional',
    params: idParams,
    query: z.object({
      base: wholeNumber(1, INT_MAX, 'must be a version number').optional().meta({ description: 'The version compared from; the one before `head` when absent.' }),
      head: wholeNumber(1, INT_MAX, 'must be a version number').optional().meta({ description: 'The version compared to; the latest when absent.' }),
    }),
    response: z.object({ base: version, head: version, diff }).meta({ id: 'VersionComparison' }),
    errors: [400, 401, 404],
  }),
  file: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/files/{path...}',
    tag: publishing,
    summary: 'Read a file of a version as text',
    auth: 'optional',
    params: pathParams,
    query: versionQuery,
    response: fileRead,
    errors: [400, 401, 404],
  }),
  history: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/history/{path...}',
    tag: publishing,
    summary: "A file's changes across versions, newest first",
    auth: 'optional',
    params: pathParams,
    response: z.object({ entries: z.array(historyEntry) }),
    errors: [400, 401, 404],
  }),
  download: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/download/{path...}',
    tag: publishing,
    summary: 'A file of a version as an attachment',
    auth: 'optional',
    params: pathParams,
    query: versionQuery,
    response: null,
    status: 200,
    errors: [400, 401, 404],
  }),
  downloadLink: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/download-link/{path...}',
    tag: publishing,
    summary: 'A /dl/<ticket> link to a file, valid 5 minutes, for browsers',
    auth: 'optional',
    params: pathParams,
    query: versionQuery,
    response: downloadLink,
    errors: [400, 401, 404],
  }),
  uploads: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/uploads',
    tag: uploadsTag,
    summary: 'Uploads, newest first',
    auth: 'optional',
    params: idParams,
    response: z.object({ uploads: z.array(upload) }),
    errors: [401, 404],
  }),
  upload: endpoint({
    method: 'POST',
    path: '/v1/spaces/{id}/uploads',
    tag: uploadsTag,
    summary: 'Upload a file (raw body; Content-Length required; at most MAX_UPLOAD_BYTES)',
    auth: 'user',
    params: idParams,
    query: named,
    response: upload,
    errors: [400, 401, 403, 404, 413],
  }),
  uploadRaw: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/uploads/{uploadId}/raw',
    tag: uploadsTag,
    summary: "An upload's bytes as an attachment",
    auth: 'optional',
    params: z.object({ id: spaceId, uploadId: text().min(1).max(100) }),
    response: null,
    status: 200,
    errors: [401, 404],
  }),
  uploadLink: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/uploads/{uploadId}/link',
    tag: uploadsTag,
    summary: 'A /dl/<ticket> link to an upload, valid 5 minutes',
    auth: 'optional',
    params: z.object({ id: spaceId, uploadId: text().min(1).max(100) }),
    response: downloadLink,
    errors: [401, 404],
  }),
  deleteUpload: endpoint({
    method: 'DELETE',
    path: '/v1/spaces/{id}/uploads/{uploadId}',
    tag: uploadsTag,
    summary: 'Delete an upload (push)',
    auth: 'user',
    params: z.object({ id: spaceId, uploadId: text().min(1).max(100) }),
    response: null,
    errors: [401, 403, 404],
  }),
};

export type Space = z.infer<typeof space>;
export type FileEntryInput = z.infer<typeof fileEntry>;
export type Diff = z.infer<typeof diff>;
export type SiteRulesSummary = z.infer<typeof siteRulesSummary>;
export type Alias = z.infer<typeof alias>;
export type SpaceDomain = z.infer<typeof spaceDomain>;
export type Version = z.infer<typeof version>;
export type Upload = z.infer<typeof upload>;
export type VisitorStats = z.infer<typeof visitorStats>;
