import { asyncApiDocument } from '@/server/http/asyncapi.ts';

export function GET() {
  return Response.json(asyncApiDocument());
}
