// The nonce of the page being rendered: the front server gives each page
// request a Content-Security-Policy with a fresh one (server/page-policy.ts),
// and Next puts it on its own scripts; a page adding a script of its own (the
// review frame's) uses the same.
import { headers } from 'next/headers';

export async function pageNonce(): Promise<string | null> {
  const policy = (await headers()).get('content-security-policy') ?? '';
  return /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1] ?? null;
}
