// Who is on the other end of a request: its address and, behind a trusted
// proxy, its city and country.
//
// `npm start` serves Next through scripts/serve.ts, which puts the TCP peer's
// address into PEER_HEADER (replacing anything a client sent under that name).
// With TRUST_PROXY=true a proxy in front of Atrium is trusted: the client is
// the last address it appended to X-Forwarded-For, and the location comes from
// the headers that Vercel and Cloudflare add.
import { config } from '../config.ts';

export const PEER_HEADER = 'x-atrium-peer';

export type Location = { city: string | null; country: string | null };

function header(request: Request, name: string): string | null {
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
export function clientAddress(request: Request): string | null {
  if (config.trustProxy) {
    const forwarded = header(request, 'x-forwarded-for')?.split(',').map((part) => part.trim()).filter(Boolean);
    if (forwarded?.length) return forwarded[forwarded.length - 1];
  }
  return header(request, PEER_HEADER);
}

/** City and country from trusted proxy headers; null when not behind a trusted proxy. */
export function clientLocation(request: Request): Location | null {
  if (!config.trustProxy) return null;
  const city = decoded(header(request, 'x-vercel-ip-city') ?? header(request, 'cf-ipcity'));
  const country = header(request, 'x-vercel-ip-country') ?? header(request, 'cf-ipcountry');
  // Cloudflare says XX for unknown and T1 for Tor.
  const knownCountry = country && !['XX', 'T1'].includes(country) ? country : null;
  return city || knownCountry ? { city, country: knownCountry } : null;
}
