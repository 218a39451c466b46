// Opaque identifiers: a short type prefix and 21 random lowercase letters and
// digits (about 108 bits), e.g. "usr_k3j9x0q2m5v8b1n4c7z6a".
import { randomInt } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const LENGTH = 21;

export const ID_PREFIX = {
  user: 'usr',
  token: 'tok',
  workspace: 'ws',
  cliSignIn: 'cli',
  workspaceInvite: 'wsi',
  auditEvent: 'aud',
  space: 'sp',
  upload: 'upl',
  comment: 'cmt',
  commentRevision: 'cmr',
  room: 'rm',
  liveSpace: 'ls',
  roomInvite: 'rmi',
  roomMessage: 'msg',
  roomReport: 'rpt',
  roomSource: 'src',
  roomSnapshot: 'rps',
  roomImage: 'img',
  spaceDbWrite: 'dbw',
  app: 'app',
  appEndUser: 'aeu',
  webhook: 'wh',
  webhookDelivery: 'whd',
  webhookEvent: 'evt',
  notification: 'ntf',
} as const;

export function newId(kind: keyof typeof ID_PREFIX): string {
  let body = '';
  for (let i = 0; i < LENGTH; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return `${ID_PREFIX[kind]}_${body}`;
}
