// Webhook signing secrets. Unlike bearer secrets they must be read back (each
// delivery is signed with one), so they are kept encrypted with AES-256-GCM
// under a key derived from AUTH_SECRET, or from a server secret kept in the
// database when AUTH_SECRET is unset.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { serverSecret } from '../auth/server-secret.ts';
import { config } from '../config.ts';

let key: Buffer | undefined;

async function encryptionKey(): Promise<Buffer> {
  key ??= Buffer.from(hkdfSync('sha256', config.authSecret ?? (await serverSecret('webhooks')), 'atrium', 'webhook signing secrets', 32));
  return key;
}

export async function encryptSecret(secret: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await encryptionKey(), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join(':');
}

export async function decryptSecret(stored: string): Promise<string> {
  const [version, iv, tag, sealed] = stored.split(':');
  if (version !== 'v1') throw new Error('Unknown webhook secret format.');
  const decipher = createDecipheriv('aes-256-gcm', await encryptionKey(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * A new endpoint's signing secret in the Standard Webhooks form: `whsec_` and
 * 32 random bytes in base64, which receivers pass as is to a Standard Webhooks
 * library (and secret scanners recognise by its prefix).
 */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Endpoints added before Standard Webhooks have `atrh_` and 32 bytes in base64url. */
const LEGACY_PREFIX = 'atrh_';

/** The HMAC key of a secret: the bytes behind its prefix. */
function signingKey(secret: string): Buffer {
  if (secret.startsWith(LEGACY_PREFIX)) return Buffer.from(secret.slice(LEGACY_PREFIX.length), 'base64url');
  return Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
}

/**
 * The Standard Webhooks headers (https://www.standardwebhooks.com):
 * `webhook-id` (the event's id, the same on every retry), `webhook-timestamp`
 * (unix seconds) and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>"), plus `Atrium-Signature`, the scheme before it
 * (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` keyed with the whole
 * secret), kept for one release so receivers can move over.
 */
export function signatureHeaders(secret: string, messageId: string, body: string, unixSeconds: number): Record<string, string> {
  const standard = createHmac('sha256', signingKey(secret)).update(`${messageId}.${unixSeconds}.${body}`).digest('base64');
  const legacy = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(unixSeconds),
    'webhook-signature': `v1,${standard}`,
    'atrium-signature': `t=${unixSeconds},v1=${legacy}`,
  };
}
