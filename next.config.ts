import type { NextConfig } from 'next';
import { SECURITY_HEADERS } from './server/http/security-headers.ts';

const securityHeaders = Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  poweredByHeader: false,
  typescript: { tsconfigPath: 'tsconfig.json' },
  // Yjs loaded from node_modules on the server, not bundled: each server bundle would hold a copy
  // of its own beside the realtime server's, and a second copy in one process breaks Yjs's
  // constructor checks (it warns "Yjs was already imported").
  serverExternalPackages: ['yjs'],
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
  // Some clients ask for /favicon.ico whatever the page links: send them to the icon there is.
  async redirects() {
    return [{ source: '/favicon.ico', destination: '/icon.svg', permanent: true }];
  },
};

export default nextConfig;
