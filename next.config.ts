import type { NextConfig } from 'next';
import { SECURITY_HEADERS } from './lib/http/security-headers.ts';

const securityHeaders = Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  poweredByHeader: false,
  typescript: { tsconfigPath: 'tsconfig.json' },
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
  // Some clients ask for /favicon.ico whatever the page links: send them to the icon there is.
  async redirects() {
    return [{ source: '/favicon.ico', destination: '/icon.svg', permanent: true }];
  },
};

export default nextConfig;
