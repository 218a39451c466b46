// Where user content is served. Each published space and each live app gets a
// host of its own under the content domain (config.contentDomain), as GitHub
// Pages and Netlify give each site a sub-domain: `sp-<id>.<domain>` for a
// space, `<alias>--sp-<id>.<domain>` for one of its aliases (a preview, as
// Netlify's `deploy-preview-42--site`), `app-<slug>.<domain>` for a live app. A site therefore has its own
// origin (its scripts, localStorage and cookies are its own) and never shares
// one with the app or with another site. Without a content domain (an install
// on a public address that has not set CONTENT_BASE_URL) they are served on the
// app's own origin at /s/<id>/ (an alias at /s/<id>/~<alias>/) and /a/<slug>/,
// sandboxed into an opaque origin.
// docs/decisions.md, "Sites on their own origins", holds the argument.
import { config, type ContentDomain } from '../config.ts';
import { ALIAS_PATTERN } from '../schemas/spaces.ts';

/** What a request's Host names under the content domain: a space's site, a live app, or nothing there. */
export type ContentHost = { kind: 'space'; id: string; alias: string | null } | { kind: 'app'; slug: string } | { kind: 'none' };

const SPACE_LABEL = /^(?:([a-z0-9-]{1,30})--)?sp[-_]([a-z0-9]{21})$/;
const APP_LABEL = /^app-([a-z0-9-]{1,60})$/;

function originOf(domain: ContentDomain, label: string): string {
  return `${domain.protocol}//${label}.${domain.hostname}${domain.port ? `:${domain.port}` : ''}`;
}

/** The host label of a space: its id, with the hyphen host names take instead of the underscore. */
const spaceLabel = (spaceId: string) => spaceId.replace('_', '-');

/** The origin a space's site is served on, or null when sites are served on the app's origin. */
export function spaceOrigin(spaceId: string): string | null {
  return config.contentDomain ? originOf(config.contentDomain, spaceLabel(spaceId)) : null;
}

/** The address of a space's site (its root, with the slash). */
export function siteUrl(spaceId: string): string {
  return `${spaceOrigin(spaceId) ?? `${config.publicUrl}/s/${spaceId}`}/`;
}

/** The address of a space's alias (its root, with the slash). */
export function aliasUrl(spaceId: string, name: string): string {
  return config.contentDomain ? `${originOf(config.contentDomain, `${name}--${spaceLabel(spaceId)}`)}/` : `${config.publicUrl}/s/${spaceId}/~${name}/`;
}

/** The origin a space's alias is served on, or null when sites are served on the app's origin. */
export function aliasOrigin(spaceId: string, name: string): string | null {
  return config.contentDomain ? originOf(config.contentDomain, `${name}--${spaceLabel(spaceId)}`) : null;
}

/** The address of a live app (its root, with the slash). */
export function liveAppUrl(slug: string): string {
  return config.contentDomain ? `${originOf(config.contentDomain, `app-${slug}`)}/` : `${config.publicUrl}/a/${slug}/`;
}

/**
 * What a Host header names under the content domain; null for any other host
 * (the app's own). The app's pages and API are never answered on a content host.
 */
export function contentHostOf(host: string | undefined): ContentHost | null {
  const domain = config.contentDomain;
  if (!domain || !host) return null;
  const hostname = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  const suffix = `.${domain.hostname}`;
  if (!hostname.endsWith(suffix) || hostname === new URL(config.publicUrl).hostname) return null;
  const label = hostname.slice(0, -suffix.length);
  const space = SPACE_LABEL.exec(label);
  if (space && (space[1] === undefined || ALIAS_PATTERN.test(space[1]))) return { kind: 'space', id: `sp_${space[2]}`, alias: space[1] ?? null };
  const app = APP_LABEL.exec(label);
  return app ? { kind: 'app', slug: app[1] } : { kind: 'none' };
}

/** A CSP source matching every host of the content domain, for the app's pages that show content. */
export function contentSource(): string | null {
  const domain = config.contentDomain;
  return domain ? `${domain.protocol}//*.${domain.hostname}${domain.port ? `:${domain.port}` : ''}` : null;
}

/** Whether cookies on content hosts can be Secure: https, or a localhost name (a secure context). */
export function contentIsSecure(): boolean {
  const domain = config.contentDomain;
  return domain !== null && (domain.protocol === 'https:' || domain.hostname === 'localhost' || domain.hostname.endsWith('.localhost'));
}
