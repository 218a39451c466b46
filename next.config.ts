import type { NextConfig } from 'next';
import { SECURITY_HEADERS } from './lib/http/security-headers.ts';

const securityHeaders = Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Published sites (app/s/…) need their folder URLs to keep the trailing
  // slash, so that relative links resolve; lib/spaces/serving.ts redirects.
  skipTrailingSlashRedirect: true,
  typescript: { tsconfigPath: 'tsconfig.json' },
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
};

export default nextConfig;
