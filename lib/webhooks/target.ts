// Where a webhook may be sent: HTTPS to a public address. A host name is
// resolved and every address it has must be public; the request then connects
// to the address that was checked (never resolving again), so a name cannot
// pass the check and then point at this machine or its network (DNS
// rebinding). WEBHOOKS_ALLOW_PRIVATE lifts both rules, for an intranet.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { config } from '../config.ts';
import { ApiError } from '../core/errors.ts';

const notPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  notPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  notPublic.addSubnet(network, prefix, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !notPublic.check(address, 'ipv4');
  if (family !== 6) return false;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is judged as IPv4.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  return !notPublic.check(address, 'ipv6');
}

export type Target = { url: URL; address: string; family: 4 | 6 };

/** The URL's problem for a webhook, or null; checked when an endpoint is registered or changed. */
export function urlProblem(raw: string): string | null {
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && config.webhooksAllowPrivate)) return 'must be an https:// URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  return null;
}

/**
 * Resolves the URL's host and checks every address; throws ApiError
 * (bad_request) naming the problem. Used at registration and before each
 * delivery, whose connection is then made to `address`.
 */
export async function resolveTarget(raw: string, field = 'url'): Promise<Target> {
  const problem = urlProblem(raw);
  if (problem) throw new ApiError('bad_request', `${field}: ${problem}.`);
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new ApiError('bad_request', `${field}: the host name ${host} does not resolve.`);
  }
  if (!config.webhooksAllowPrivate) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused || addresses.length === 0) {
      throw new ApiError('bad_request', `${field}: ${host} resolves to ${refused?.address ?? 'nothing'}, which is not a public address; webhooks are only sent to public addresses.`);
    }
  }
  return { url, address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}
