// The web session cookie's name, one rule for next-auth (which sets it), our
// own reader (server/http/authenticate.ts) and the OpenAPI document.

/**
 * `__Host-atrium_session` when the app is served over https: browsers take a
 * `__Host-` cookie only when it is Secure, on Path=/ and without Domain, so no
 * other host (a site under the app's registrable domain) can set one that the
 * app would read. Plain http (a local install) cannot carry the prefix.
 */
export function sessionCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? '__Host-atrium_session' : 'atrium_session';
}
