import { asyncApiDocument } from '@/lib/http/asyncapi.ts';

export function GET() {
  return Response.json(asyncApiDocument());
}
