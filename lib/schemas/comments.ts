// Comments on the files of a space: threads anchored to a quote of a file's
// text, replies, resolution, revisions, and guests (docs/decisions.md, "Comments").
import { z } from 'zod';
import { INT_MAX, text, timestamp } from './common.ts';
import { endpoint } from './endpoint.ts';
import { aliasName } from './spaces.ts';

const tag = 'Spaces: comments';

/** Limits of what a comment carries (UTF-16 code units, as JavaScript counts). */
export const COMMENT_LIMITS = {
  body: 10_000,
  quote: 2_000,
  /** prefix and suffix: the context around the quote. */
  context: 200,
  path: 1024,
  guestName: 50,
} as const;

/** The guest's key: base64url, at least 22 characters (132 random bits). */
export const GUEST_KEY_PATTERN = /^[A-Za-z0-9_-]{22,128}$/;

export const guest = z
  .object({
    name: text()
      .trim()
      .min(1, 'must not be empty')
      .max(COMMENT_LIMITS.guestName, `must be at most ${COMMENT_LIMITS.guestName} characters`)
      .optional()
      .meta({ description: 'The name shown with the comment (creating only). Marked as a guest; may not be a member handle.' }),
    key: text()
      .regex(GUEST_KEY_PATTERN, 'must be 22 to 128 base64url characters (at least 128 random bits)')
      .meta({ description: "A secret the guest's browser makes and keeps; proves authorship for edits and deletes. Only its hash is stored." }),
  })
  .meta({ id: 'CommentGuest' });

const commentId = text().min(1).max(100);
const spaceId = text().min(1).max(100);

export const anchorInput = z
  .object({
    exact: text({ multiline: true }).min(1).max(COMMENT_LIMITS.quote),
    prefix: text({ multiline: true }).max(COMMENT_LIMITS.context).optional(),
    suffix: text({ multiline: true }).max(COMMENT_LIMITS.context).optional(),
    start: z.number().int().min(0).max(INT_MAX).optional(),
    end: z.number().int().min(0).max(INT_MAX).optional(),
  })
  .meta({ id: 'CommentAnchorInput', description: 'W3C Web Annotation TextQuoteSelector (exact, prefix, suffix) and TextPositionSelector (start, end) on the file text.' });

export const anchor = z
  .object({
    exact: z.string(),
    prefix: z.string(),
    suffix: z.string(),
    start: z.number().int(),
    end: z.number().int(),
    status: z.enum(['anchored', 'orphaned']).meta({
      description: 'anchored: the quote was found in the file at `versionNumber` (start and end point there); orphaned: its text is gone (start and end are where it was when written).',
    }),
    versionNumber: z.number().int().meta({ description: 'The version whose file text start and end refer to.' }),
  })
  .meta({ id: 'CommentAnchor' });

export const commentAuthor = z
  .object({
    kind: z.enum(['user', 'guest', 'deleted']),
    id: z.string().nullable(),
    handle: z.string().nullable(),
    name: z.string().meta({ description: 'What to show: the name (or handle) of a user, the name a guest gave, or "Deleted user".' }),
  })
  .meta({ id: 'CommentAuthor' });

export const via = z.enum(['web', 'cli', 'api', 'guest']).meta({ description: 'web: a web session; cli: an API token from the CLI sign-in; api: other tokens; guest: a guest with a key.' });

export const comment = z
  .object({
    id: z.string(),
    spaceId: z.string(),
    path: z.string(),
    versionNumber: z.number().int(),
    parentId: z.string().nullable(),
    author: commentAuthor,
    guestName: z.string().nullable(),
    origin: z.object({ country: z.string().nullable(), userAgent: z.string().nullable() }).nullable(),
    body: z.string().meta({ description: 'Markdown; shown without raw HTML.' }),
    quote: z.string().nullable(),
    anchor: anchor.nullable(),
    via: via.nullable(),
    alias: z.string().nullable().meta({ description: 'The alias (preview address) the commenter came through, null for the space’s own address.' }),
    resolvedAt: timestamp.nullable(),
    resolvedBy: commentAuthor.nullable(),
    resolvedVia: via.nullable(),
    editedAt: timestamp.nullable(),
    editedBy: commentAuthor.nullable(),
    editedVia: via.nullable(),
    revisions: z.number().int().meta({ description: 'How many earlier texts are kept.' }),
    createdAt: timestamp,
  })
  .meta({ id: 'Comment' });

export const thread = comment.extend({ replies: z.array(comment) }).meta({ id: 'CommentThread', description: 'A root comment with its replies, oldest first.' });

export const revision = z
  .object({ body: z.string(), writtenAt: timestamp, replacedAt: timestamp })
  .meta({ id: 'CommentRevision', description: 'An earlier text of a comment: when it was written and when an edit replaced it.' });

export const commentsApi = {
  list: endpoint({
    method: 'GET',
    path: '/v1/spaces/{id}/comments',
    tag,
    summary: "A space's comment threads, anchored to the latest version of their file (or `v`)",
    auth: 'optional',
    params: z.object({ id: spaceId }),
    query: z.object({
      path: text().min(1).max(COMMENT_LIMITS.path).optional(),
      status: z.enum(['open', 'resolved', 'all']).default('open'),
      v: text()
        .regex(/^[1-9]\d{0,9}$/, 'must be a version number')
        .transform(Number)
        .refine((n) => n <= INT_MAX, 'must be a version number')
        .optional()
        .meta({ description: 'Anchor the threads in this version; the latest when absent.' }),
    }),
    response: z.object({ threads: z.array(thread) }),
    errors: [400, 401, 404],
  }),
  create: endpoint({
    method: 'POST',
    path: '/v1/spaces/{id}/comments',
    tag,
    summary: 'Comment on a file (a new thread) or reply to a thread; guests while the space allows guest comments',
    auth: 'optional',
    params: z.object({ id: spaceId }),
    body: z.object({
      path: text().min(1).max(COMMENT_LIMITS.path),
      body: text({ multiline: true }).trim().min(1, 'must not be empty').max(COMMENT_LIMITS.body, `must be at most ${COMMENT_LIMITS.body} characters`),
      quote: text({ multiline: true }).min(1).max(COMMENT_LIMITS.quote, `must be at most ${COMMENT_LIMITS.quote} characters`).optional(),
      anchor: anchorInput.optional(),
      parentId: commentId.optional(),
      versionNumber: z.number().int().min(1).max(INT_MAX).optional(),
      alias: aliasName.optional().meta({ description: 'The alias the commenter came through (a preview address). A new thread is on its version unless `versionNumber` says the same; a reply keeps its thread’s version.' }),
      guest: guest.optional(),
    }),
    response: comment,
    errors: [400, 401, 403, 404, 429],
  }),
  edit: endpoint({
    method: 'PATCH',
    path: '/v1/comments/{id}',
    tag,
    summary: 'Change the text of a comment (its author; a guest with their key); the old text is kept as a revision',
    auth: 'optional',
    params: z.object({ id: commentId }),
    body: z.object({
      body: text({ multiline: true }).trim().min(1, 'must not be empty').max(COMMENT_LIMITS.body, `must be at most ${COMMENT_LIMITS.body} characters`),
      guest: guest.optional(),
    }),
    response: comment,
    errors: [400, 401, 403, 404],
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/v1/comments/{id}',
    tag,
    summary: 'Delete a comment and its replies (its author, a guest with their key, or someone who can push)',
    auth: 'optional',
    params: z.object({ id: commentId }),
    body: z.object({ guest: guest.optional() }),
    response: null,
    errors: [400, 401, 403, 404],
  }),
  revisions: endpoint({
    method: 'GET',
    path: '/v1/comments/{id}/revisions',
    tag,
    summary: "A comment's earlier texts, oldest first; empty if never edited",
    auth: 'optional',
    params: z.object({ id: commentId }),
    response: z.object({ revisions: z.array(revision) }),
    errors: [401, 404],
  }),
  resolve: endpoint({
    method: 'POST',
    path: '/v1/comments/{id}/resolve',
    tag,
    summary: 'Resolve the thread (its author or someone who can push)',
    auth: 'optional',
    params: z.object({ id: commentId }),
    response: comment,
    errors: [401, 403, 404],
  }),
  unresolve: endpoint({
    method: 'POST',
    path: '/v1/comments/{id}/unresolve',
    tag,
    summary: 'Reopen a resolved thread (its author or someone who can push)',
    auth: 'optional',
    params: z.object({ id: commentId }),
    response: comment,
    errors: [401, 403, 404],
  }),
};
