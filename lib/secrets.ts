// Bearer secrets: 32 random bytes (256 bits) in base64url behind a readable
// prefix, so that secret scanners can recognise a leaked one. Only the SHA-256
// hash of a secret is ever stored.
import { createHash, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = {
  apiToken: 'atr_',
  webSession: 'atrs_',
  deviceCode: 'atrd_',
  workspaceInvite: 'atrw_',
  spaceAccess: 'atrp_',
  downloadTicket: 'atrt_',
  roomInvite: 'atrr_',
} as const;

export function newSecret(kind: keyof typeof SECRET_PREFIX): string {
  return SECRET_PREFIX[kind] + randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
