// Who is on the other end of a request: its address and, behind a trusted
// proxy, its city and country.
//
// The front server (server/) puts the TCP peer's address into PEER_HEADER
// (replacing anything a client sent under that name).
// With TRUST_PROXY=true a proxy in front of Atrium is trusted: the client is
// the last address it appended to X-Forwarded-For, and the location comes from
// the headers that Vercel and Cloudflare add.
import { isIPv4, isIPv6 } from 'node:net';
import { config } from '../config.ts';

export const PEER_HEADER = 'x-atrium-peer';

import type { Caller, Client, Location } from './caller.ts';
import type { Actor } from './caller.ts';

/** What the request readers below need of a request's headers: a Fetch Request's, or Node's (server/http/node.ts). */
export type HeaderReader = { get(name: string): string | null };

function header(request: { headers: HeaderReader }, name: string): string | null {
  const value = request.headers.get(name)?.trim();
  return value ? value : null;
}

function decoded(value: string | null): string | null {
  if (!value) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The client's address, or null when the server cannot know it. */
export function clientAddress(request: { headers: HeaderReader }): string | null {
  if (config.trustProxy) {
    const forwarded = header(request, 'x-forwarded-for')?.split(',').map((part) => part.trim()).filter(Boolean);
    if (forwarded?.length) return forwarded[forwarded.length - 1];
  }
  return header(request, PEER_HEADER);
}

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address.split('%')[0].toLowerCase();
  // A trailing dotted IPv4 part (::ffff:192.0.2.1) is two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((group) => parseInt(group, 16));
}

/**
 * The client as rate limits count it. An IPv4 address is itself; an IPv6
 * address counts by its /64 network, since one subscriber usually holds a
 * whole /64 and could otherwise take a fresh address for every try. An
 * IPv4-mapped IPv6 address is its IPv4 address. Unknown clients share one key.
 */
export function addressKey(address: string | null): string {
  if (!address) return 'unknown';
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address.slice(0, 64);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The trusted proxies' headers that name the client's country (an answer that depends on it varies by them). */
export const COUNTRY_HEADERS = ['x-vercel-ip-country', 'cf-ipcountry'] as const;

/** City and country from trusted proxy headers; null when not behind a trusted proxy. */
export function clientLocation(request: { headers: HeaderReader }): Location | null {
  if (!config.trustProxy) return null;
  const city = decoded(header(request, 'x-vercel-ip-city') ?? header(request, 'cf-ipcity'));
  const country = header(request, COUNTRY_HEADERS[0]) ?? header(request, COUNTRY_HEADERS[1]);
  // Cloudflare says XX for unknown and T1 for Tor.
  const knownCountry = country && !['XX', 'T1'].includes(country) ? country : null;
  return city || knownCountry ? { city, country: knownCountry } : null;
}

/** The client of a request: address, user agent, location behind a trusted proxy. */
export function clientOf(request: { headers: HeaderReader }): Client {
  return { address: clientAddress(request), userAgent: request.headers.get('user-agent')?.slice(0, 300) || null, location: clientLocation(request) };
}

/** The caller of an API request: the unlock token of a protected space rides in X-Space-Token. */
export function callerOf(request: { headers: HeaderReader }, actor: Actor | null): Caller {
  return { actor, spaceToken: request.headers.get('x-space-token'), client: clientOf(request) };
}
