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
 * The Atrium-Signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`,
 * as Stripe signs its webhooks; receivers recompute it and refuse old timestamps.
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
