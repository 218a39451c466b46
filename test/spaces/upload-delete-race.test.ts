// Deleting the same upload twice at once (a double click, a retried request):
// one call deletes it, the others find nothing. Both used to pass the lookup
// and the loser's delete failed inside Prisma with a 500.
import { expect, it } from 'vitest';
import { DELETE as deleteRoute } from '@/app/v1/spaces/[id]/uploads/[uploadId]/route.ts';
import { POST as uploadRoute } from '@/app/v1/spaces/[id]/uploads/route.ts';
import { call, signIn } from '../helpers.ts';
import { bytes, makeSpace } from './fixtures.ts';

it('answers concurrent deletes of one upload with one 204 and 404s, never a 500', async () => {
  const { token } = await signIn('double-deleter');
  const space = await makeSpace(token, 'double-deleter');
  for (let round = 0; round < 5; round++) {
    const made = await call(uploadRoute, 'POST', `/v1/spaces/${space.id}/uploads?name=n.txt`, {
      token,
      rawBody: bytes('twice'),
      headers: { 'content-length': '5' },
      params: { id: space.id },
    });
    expect(made.status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call(deleteRoute, 'DELETE', '', { token, params: { id: space.id, uploadId: made.json.id } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([204, 404, 404, 404, 404, 404]);
  }
});
