import { openApiDocument } from '@/lib/http/openapi.ts';

export function GET() {
  return Response.json(openApiDocument());
}
