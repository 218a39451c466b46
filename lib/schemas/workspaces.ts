import { z } from 'zod';
import { handle, slug, text, textRules, timestamp, user, wholeNumber } from './common.ts';
import { endpoint } from './endpoint.ts';

export const workspaceRole = z.enum(['owner', 'admin', 'member', 'viewer']);
const plan = z.enum(['free', 'pro', 'team', 'enterprise']);

export const workspaceSummary = z
  .object({
    id: z.string(),
    slug,
    name: z.string().min(1).max(100),
    role: workspaceRole.meta({ description: "The caller's role (for an invitation, the offered role)." }),
  })
  .meta({ id: 'WorkspaceSummary' });

export const workspaceMember = z
  .object({
    user,
    role: workspaceRole,
    status: z.enum(['accepted', 'pending']).meta({ description: 'pending: invited by handle, not yet accepted.' }),
    invitedBy: user.nullable(),
    invitedAt: timestamp.meta({ description: 'When the membership or invitation was made.' }),
    joinedAt: timestamp.nullable().meta({ description: 'When the invitation was accepted; null while pending.' }),
  })
  .meta({ id: 'WorkspaceMember' });

const count = z.number().int().min(0);

export const workspaceSeats = z
  .object({
    plan,
    used: count.meta({ description: 'Accepted members, whatever their role.' }),
    pending: count.meta({ description: 'Invitations by handle not yet accepted; they take a seat only once accepted.' }),
    limit: count.nullable().meta({ description: "The plan's seats; null is unlimited." }),
  })
  .meta({ id: 'WorkspaceSeats' });

export const workspaceDetail = workspaceSummary
  .extend({
    members: z.array(workspaceMember).meta({ description: 'Accepted members; pending invitations too for owners and admins.' }),
    spaceCount: count,
    createdAt: timestamp,
    seats: workspaceSeats.optional(),
  })
  .meta({ id: 'WorkspaceDetail' });

export const inviteLink = z
  .object({
    id: z.string(),
    role: workspaceRole,
    email: z.string().nullable().meta({ description: 'Only an account with this e-mail address may accept.' }),
    maxUses: z.number().int().nullable().meta({ description: 'null: any number of uses until it expires.' }),
    uses: count,
    createdBy: user.nullable(),
    createdAt: timestamp,
    expiresAt: timestamp,
  })
  .meta({ id: 'WorkspaceInviteLink' });

export const inviteLinkResult = z
  .object({
    invite: inviteLink,
    url: z.string().meta({ description: 'The link. Shown only here: the server keeps only a hash of its token.' }),
    emailed: z.boolean().meta({ description: 'Whether the link was e-mailed to `email` (needs SMTP on the server).' }),
  })
  .meta({ id: 'WorkspaceInviteLinkResult' });

const workspaceRef = z.object({ id: z.string(), slug, name: z.string() }).meta({ id: 'WorkspaceRef' });

export const invitePreview = z
  .object({
    workspace: workspaceRef,
    role: workspaceRole,
    invitedBy: user.nullable(),
    memberCount: count,
    expiresAt: timestamp,
    alreadyMember: z.boolean().meta({ description: 'Whether the signed-in caller is already a member; false when anonymous.' }),
  })
  .meta({ id: 'WorkspaceInvitePreview' });

export const inviteAcceptResult = z
  .object({
    workspace: workspaceSummary,
    alreadyMember: z.boolean().meta({ description: 'true when the caller was already a member: nothing changed and no use was counted.' }),
  })
  .meta({ id: 'WorkspaceInviteAcceptResult' });

export const auditEvent = z
  .object({
    id: z.string(),
    action: z.string().meta({ description: 'e.g. member.invited, member.joined, member.role_changed, invite_link.created; see docs/decisions.md.' }),
    actor: z.object({ id: z.string(), handle: z.string() }).nullable().meta({ description: 'Who acted, with the handle of the time.' }),
    target: z
      .object({ type: z.string(), id: z.string(), label: z.string().nullable() })
      .nullable()
      .meta({ description: 'What was acted on, e.g. {type:"user", id, label: handle}.' }),
    details: z.record(z.string(), z.unknown()),
    createdAt: timestamp,
  })
  .meta({ id: 'AuditEvent' });

export const auditPage = z
  .object({
    events: z.array(auditEvent),
    next: z.number().int().nullable().meta({ description: 'Pass as `before` for older events; null on the last page.' }),
  })
  .meta({ id: 'AuditPage' });

const slugParam = text().min(1).max(100).meta({ description: 'A workspace slug.' });
const slugParams = z.object({ slug: slugParam });
const tokenBody = z.object({ token: text().min(1).max(200) });

export const workspacesApi = {
  list: endpoint({
    method: 'GET',
    path: '/v1/workspaces',
    tag: 'Workspaces',
    summary: "The caller's accepted workspaces, oldest first",
    auth: 'user',
    response: z.array(workspaceSummary),
    errors: [401],
  }),
  create: endpoint({
    method: 'POST',
    path: '/v1/workspaces',
    tag: 'Workspaces',
    summary: 'Create a workspace; the caller becomes its owner',
    auth: 'user',
    body: z.object({ slug, name: text().trim().min(1).max(100) }),
    response: workspaceSummary,
    errors: [400, 401, 409],
  }),
  get: endpoint({
    method: 'GET',
    path: '/v1/workspaces/{slug}',
    tag: 'Workspaces',
    summary: 'A workspace with its members and seats (members only)',
    auth: 'user',
    params: slugParams,
    response: workspaceDetail,
    errors: [401, 404],
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v1/workspaces/{slug}',
    tag: 'Workspaces',
    summary: "Rename a workspace or change its slug (owner or admin)",
    auth: 'user',
    params: slugParams,
    body: z.object({ slug: slug.optional(), name: text().trim().min(1).max(100).optional() }),
    response: workspaceSummary,
    errors: [400, 401, 403, 404, 409],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/v1/workspaces/{slug}',
    tag: 'Workspaces',
    summary: 'Delete a workspace with its spaces, members and audit log (owner or admin; not a personal workspace)',
    auth: 'user',
    params: slugParams,
    response: null,
    errors: [401, 403, 404, 409],
  }),
  invite: endpoint({
    method: 'POST',
    path: '/v1/workspaces/{slug}/members',
    tag: 'Workspaces',
    summary: 'Invite someone by handle (owner or admin; only owners invite owners); pending until accepted',
    auth: 'user',
    params: slugParams,
    body: z.object({ handle, role: workspaceRole.default('member') }),
    response: null,
    errors: [400, 401, 403, 404, 409],
  }),
  changeRole: endpoint({
    method: 'PATCH',
    path: '/v1/workspaces/{slug}/members/{handle}',
    tag: 'Workspaces',
    summary: "Change a member's role (owner or admin; only owners change owners; one owner always remains)",
    auth: 'user',
    params: z.object({ slug: slugParam, handle: text().min(1).max(100) }),
    body: z.object({ role: workspaceRole }),
    response: null,
    errors: [400, 401, 403, 404, 409],
  }),
  removeMember: endpoint({
    method: 'DELETE',
    path: '/v1/workspaces/{slug}/members/{handle}',
    tag: 'Workspaces',
    summary: "Remove a member or cancel an invitation (owner or admin), or leave (oneself); one owner always remains. A member who goes loses their grants in the workspace's rooms and live spaces, but for those kept as a guest",
    auth: 'user',
    params: z.object({ slug: slugParam, handle: text().min(1).max(100) }),
    body: z.object({
      keepAsGuest: z
        .array(text().min(1).max(100))
        .max(1000)
        .optional()
        .meta({ description: "Ids of the member's rooms and live spaces in this workspace that stay open to them as a guest (their role there, at most editor). Only when an admin removes an accepted member." }),
    }),
    response: null,
    errors: [400, 401, 403, 404, 409],
  }),
  listInvites: endpoint({
    method: 'GET',
    path: '/v1/workspaces/{slug}/invites',
    tag: 'Workspaces',
    summary: 'Live invite links, newest first (owner or admin)',
    auth: 'user',
    params: slugParams,
    response: z.object({ invites: z.array(inviteLink) }),
    errors: [401, 403, 404],
  }),
  createInvite: endpoint({
    method: 'POST',
    path: '/v1/workspaces/{slug}/invites',
    tag: 'Workspaces',
    summary: 'Create an invite link (owner or admin; only owners make owner links); the link is shown once',
    auth: 'user',
    params: slugParams,
    body: z.object({
      role: workspaceRole.default('member'),
      email: z.email().max(254).check(textRules()).optional().meta({ description: 'Only an account with this e-mail may accept; the link is e-mailed there when SMTP is set up.' }),
      maxUses: z.number().int().min(1).max(10_000).nullable().default(null),
      expiresInDays: z.number().int().min(1).max(90).default(7),
    }),
    response: inviteLinkResult,
    errors: [400, 401, 403, 404],
  }),
  revokeInvite: endpoint({
    method: 'DELETE',
    path: '/v1/workspaces/{slug}/invites/{id}',
    tag: 'Workspaces',
    summary: 'Revoke an invite link (owner or admin)',
    auth: 'user',
    params: z.object({ slug: slugParam, id: text().min(1).max(100) }),
    response: null,
    errors: [401, 403, 404],
  }),
  previewInvite: endpoint({
    method: 'POST',
    path: '/v1/workspace-invites/preview',
    tag: 'Workspaces',
    summary: 'What an invite link leads to; anyone holding the link (signed in: whether already a member)',
    auth: 'optional',
    body: tokenBody,
    response: invitePreview,
    errors: [400, 404, 410],
  }),
  acceptInvite: endpoint({
    method: 'POST',
    path: '/v1/workspace-invites/accept',
    tag: 'Workspaces',
    summary: "Join a workspace through an invite link, with the link's role",
    auth: 'user',
    body: tokenBody,
    response: inviteAcceptResult,
    errors: [400, 401, 403, 404, 410],
  }),
  accept: endpoint({
    method: 'POST',
    path: '/v1/workspaces/{slug}/accept',
    tag: 'Workspaces',
    summary: "Accept the caller's pending invitation",
    auth: 'user',
    params: slugParams,
    response: null,
    errors: [401, 403, 404],
  }),
  decline: endpoint({
    method: 'POST',
    path: '/v1/workspaces/{slug}/decline',
    tag: 'Workspaces',
    summary: "Decline the caller's pending invitation",
    auth: 'user',
    params: slugParams,
    response: null,
    errors: [401, 404],
  }),
  audit: endpoint({
    method: 'GET',
    path: '/v1/workspaces/{slug}/audit',
    tag: 'Workspaces',
    summary: 'The audit log, newest first (owner or admin)',
    auth: 'user',
    params: slugParams,
    query: z.object({
      // The audit log's seq is a bigint: any safe integer may be asked for.
      before: wholeNumber(1, Number.MAX_SAFE_INTEGER).optional().meta({ description: 'The `next` of the previous page.' }),
      limit: wholeNumber(1, 200).default(50).meta({ description: 'From 1 to 200; 50 when absent.' }),
    }),
    response: auditPage,
    errors: [400, 401, 403, 404],
  }),
};

export type WorkspaceSummary = z.infer<typeof workspaceSummary>;
export type WorkspaceDetail = z.infer<typeof workspaceDetail>;
export type WorkspaceMember = z.infer<typeof workspaceMember>;
export type InviteLink = z.infer<typeof inviteLink>;
export type InviteLinkResult = z.infer<typeof inviteLinkResult>;
export type InvitePreview = z.infer<typeof invitePreview>;
export type InviteAcceptResult = z.infer<typeof inviteAcceptResult>;
export type AuditEvent = z.infer<typeof auditEvent>;
export type AuditPage = z.infer<typeof auditPage>;
