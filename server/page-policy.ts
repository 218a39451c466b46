// The web app's pages carry a strict Content-Security-Policy. A fresh nonce
// per request goes into the request's own CSP header, where Next reads it and
// puts it on every script it renders; the browser then runs only those, and
// what they load ('strict-dynamic'). Published sites and their previews come
// from the content domain's hosts, the only other origins a page may frame or
// load styles, images and fonts from (the review frame shows a published page).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { config } from '../lib/config.ts';
import { contentSource } from '../lib/spaces/hosts.ts';

function policy(nonce: string): string {
  const content = contentSource() ?? '';
  const realtime = config.realtimeUrl ? new URL(config.realtimeUrl).origin.replace(/^http/, 'ws') : '';
  return [
    "default-src 'self'",
    // Next's development server evaluates modules for hot reloading.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${config.nodeEnv === 'development' ? " 'unsafe-eval'" : ''}`,
    // The review frame shows a published page inside the app's page (srcdoc inherits this policy):
    // its styles, images and fonts come from the content origin.
    `style-src 'self' 'unsafe-inline' ${content}`.trim(),
    `img-src 'self' data: blob: ${content}`.trim(),
    `font-src 'self' data: ${content}`.trim(),
    `connect-src 'self' ${realtime}`.trim(),
    `frame-src 'self' ${content}`.trim(),
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Gives the page request its nonce and the response its policy. */
export function applyPagePolicy(request: IncomingMessage, response: ServerResponse): void {
  const csp = policy(randomBytes(16).toString('base64'));
  request.headers['content-security-policy'] = csp;
  response.setHeader('content-security-policy', csp);
}
