import { openApiDocument } from '@/server/http/openapi.ts';

export function GET() {
  return Response.json(openApiDocument());
}
