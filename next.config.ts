import type { NextConfig } from 'next';

const securityHeaders = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
];

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
