import type { NextConfig } from 'next';
import { SECURITY_HEADERS } from './lib/http/security-headers.ts';

const securityHeaders = Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  poweredByHeader: false,
  typescript: { tsconfigPath: 'tsconfig.json' },
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
};

export default nextConfig;
