// next-auth's endpoints (sign-in handshakes, e-mail link callback, sign-out).
import NextAuth from 'next-auth';
import { NextRequest } from 'next/server';
import { authConfig } from '@/lib/auth/web-sign-in.ts';
import { config } from '@/lib/config.ts';

const { handlers } = NextAuth(authConfig);

// Every URL next-auth builds (links in e-mails, OAuth redirects) is on
// PUBLIC_URL, whatever Host header the request came with.
function onPublicUrl(request: NextRequest): NextRequest {
  return new NextRequest(new URL(request.nextUrl.pathname + request.nextUrl.search, config.publicUrl), request);
}

export const GET = (request: NextRequest) => handlers.GET(onPublicUrl(request));
export const POST = (request: NextRequest) => handlers.POST(onPublicUrl(request));
