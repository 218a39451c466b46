// A commit lists each file's size, but the blob it names was stored with its
// real size. A listed size that disagrees used to be kept: files were then
// served with that Content-Length and their real bytes, so a client read a
// cut or overlong answer and, on a kept-alive connection, took the rest for
// the next response.
import { expect, it } from 'vitest';
import { GET as downloadRoute } from '@/app/v1/spaces/[id]/download/[...path]/route.ts';
import { POST as commitRoute } from '@/app/v1/spaces/[id]/versions/route.ts';
import { call, signIn } from '../helpers.ts';
import { fileList, makeSpace, push } from './fixtures.ts';

it('refuses a commit whose listed size differs from the stored blob (400), and keeps serving the real length', async () => {
  const { token } = await signIn('size-liar');
  const space = await makeSpace(token, 'size-liar');
  await push(token, space.id, { 'index.html': '<h1>Hello</h1>\n' });
  for (const size of [0, 3, 1000]) {
    const [entry] = fileList({ 'index.html': '<h1>Hello</h1>\n' });
    const lie = await call(commitRoute, 'POST', '', { token, params: { id: space.id }, body: { files: [{ ...entry, path: 'other.html', size }] } });
    expect(lie.status).toBe(400);
    expect(lie.json.error.message).toContain('other.html');
  }
  const read = await call(downloadRoute, 'GET', '', { token, params: { id: space.id, path: ['index.html'] } });
  expect(read.status).toBe(200);
  expect(read.headers.get('content-length')).toBe('15');
  expect(read.text).toBe('<h1>Hello</h1>\n');
});
