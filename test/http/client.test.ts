import { afterEach, describe, expect, it } from 'vitest';
import { config } from '@/lib/config.ts';
import { clientAddress, clientLocation, PEER_HEADER } from '@/lib/core/client.ts';

const request = (headers: Record<string, string>) => new Request('http://localhost:3000/v1/auth/cli/start', { headers });

describe('client address and location', () => {
  afterEach(() => {
    config.trustProxy = false;
  });

  it('uses the TCP peer and ignores forwarding headers a client could forge, unless a proxy is trusted', () => {
    const forged = request({ [PEER_HEADER]: '192.0.2.7', 'x-forwarded-for': '203.0.113.1', 'cf-ipcountry': 'FR', 'cf-ipcity': 'Paris' });
    expect(clientAddress(forged)).toBe('192.0.2.7');
    expect(clientLocation(forged)).toBeNull();
    expect(clientAddress(request({}))).toBeNull();
  });

  it('behind a trusted proxy, takes the address the proxy appended last and its location headers', () => {
    config.trustProxy = true;
    const proxied = request({ [PEER_HEADER]: '10.0.0.2', 'x-forwarded-for': '198.51.100.1, 203.0.113.5', 'cf-ipcountry': 'FR', 'cf-ipcity': 'Paris' });
    expect(clientAddress(proxied)).toBe('203.0.113.5');
    expect(clientLocation(proxied)).toEqual({ city: 'Paris', country: 'FR' });
    expect(clientLocation(request({ 'x-vercel-ip-country': 'DE' }))).toEqual({ city: null, country: 'DE' });
    expect(clientLocation(request({ 'cf-ipcountry': 'XX' }))).toBeNull();
    expect(clientAddress(request({ [PEER_HEADER]: '10.0.0.2' }))).toBe('10.0.0.2');
  });
});
