import { z } from 'zod';
import { slug } from './common.ts';

export const workspaceRole = z.enum(['owner', 'admin', 'member', 'viewer']);

export const workspaceSummary = z
  .object({
    id: z.string(),
    slug,
    name: z.string().min(1).max(100),
    role: workspaceRole.meta({ description: "The caller's role (for an invitation, the offered role)." }),
  })
  .meta({ id: 'WorkspaceSummary' });

export type WorkspaceSummary = z.infer<typeof workspaceSummary>;
