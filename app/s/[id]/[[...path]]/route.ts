import { serveSite, unlockSite } from '@/lib/spaces/serving.ts';

// Published spaces, served to their visitors (see lib/spaces/serving.ts).
type Context = { params: Promise<{ id: string }> };

export async function GET(request: Request, { params }: Context) {
  return serveSite(request, (await params).id);
}

export async function HEAD(request: Request, { params }: Context) {
  return serveSite(request, (await params).id);
}

export async function POST(request: Request, { params }: Context) {
  return unlockSite(request, (await params).id);
}
