// Guest names compared by their confusable skeleton (lib/accounts/guest-names.ts):
// look-alikes of "Deleted user", of reserved names and of people's handles are
// refused, on comments and on guest database writes; ordinary names of any
// script pass.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POST as queryRoute } from '@/app/v1/spaces/[id]/db/query/route.ts';
import { PUT as guestWritesRoute } from '@/app/v1/spaces/[id]/db/guest-writes/route.ts';
import { PATCH as handleRoute } from '@/app/v1/me/handle/route.ts';
import { handleSkeletonInDatabase, nameSkeleton } from '@/lib/accounts/guest-names.ts';
import { PEER_HEADER } from '@/lib/core/client.ts';
import { HANDLE_PATTERN } from '@/lib/schemas/common.ts';
import { call, signIn } from '../helpers.ts';
import { makeSpace, push } from '../spaces/fixtures.ts';
import { comments, guestKey, patchSpace } from './fixtures.ts';

let addresses = 0;
const fresh = () => ({ headers: { [PEER_HEADER]: `198.51.100.${++addresses}` } });

async function guestSpace(handle: string) {
  const owner = await signIn(handle);
  const space = await makeSpace(owner.token, handle, { visibility: 'public' });
  await push(owner.token, space.id, { 'guide.md': '# Guide\n' });
  await patchSpace(owner.token, space.id, { guestComments: true, guestWrites: true });
  return { owner, space };
}

describe('guest names', () => {
  it('refuses look-alikes of "Deleted user", of reserved names and of handles, whatever script, marks, case or separators they use', async () => {
    const { space } = await guestSpace('gn-mirna');
    const as = (name: string) => comments.create(space.id, { path: 'guide.md', body: 'hi', guest: { name, key: guestKey() } }, fresh());
    const impostors = [
      // The five kinds that passed before: dotless ı, Latin alpha ɑ, rn for m, an underscore, a mark.
      'Adm\u0131n',
      'gn-m\u0131rna',
      '\u0251dmin',
      'gn-mirn\u0251',
      'Adrnin',
      'gn-rnirna',
      'Deleted_user',
      'Del\u00e9ted user',
      // And the obvious ones.
      'D\u0435l\u0435t\u0435d us\u0435r', // Cyrillic е
      'DeIeted user', // capital I for l
      'De1eted  user',
      'Deleted.-_user',
      '\uff21\uff44\uff4d\uff49\uff4e', // fullwidth
      'ADMIN',
      '\u0410dmin', // Cyrillic А
      'Administrat\u03bfr', // Greek ο
      'Adm\u0456n', // Cyrillic і
      'GN.MIRNA',
      'gn mirna',
      'gn-m\u0456rn\u0430', // Cyrillic і and а
      'gn-\u1d0d\u026arna', // small capitals M and I
      'gn\u2014mirna', // em dash
      'gn-mi\u0301rna\u200b', // a combining accent, a zero-width space
    ];
    for (const name of impostors) {
      const answer = await as(name);
      expect(answer.status, JSON.stringify(name)).toBe(400);
      expect(answer.json.error.message, JSON.stringify(name)).toMatch(/^body\.guest\.name: (".*" is reserved|that is the handle of someone)/);
    }
  });

  it('lets ordinary names of many scripts through, kept as given', async () => {
    const { space } = await guestSpace('gn-kind');
    for (const name of ['日本', 'Zoë', 'Łukasz', 'Ἀθηνᾶ', 'Иван Петров', 'Müller', '김민준', 'محمد', 'Ólafur', 'Mira', 'Deleted', 'Admiral', 'Sam_Lee']) {
      const answer = await comments.create(space.id, { path: 'guide.md', body: 'hi', guest: { name, key: guestKey() } }, fresh());
      expect(answer.status, name).toBe(200);
      expect(answer.json.guestName).toBe(name);
    }
  });

  it('checks the names of guest database writes the same way', async () => {
    const { owner, space } = await guestSpace('gn-db');
    const params = { id: space.id };
    expect((await call(queryRoute, 'POST', '', { token: owner.token, params, body: { sql: 'CREATE TABLE book (who TEXT)', write: true } })).status).toBe(200);
    expect((await call(guestWritesRoute, 'PUT', '', { token: owner.token, params, body: { statements: [{ name: 'sign', sql: 'INSERT INTO book VALUES (1)' }] } })).status).toBe(200);
    const write = (name: string) => call(queryRoute, 'POST', '', { params, body: { sql: 'sign', write: true, guest: { name } }, ...fresh() });
    for (const name of ['Deleted_user', 'gn-db', 'GN_DB', 'Adm\u0131n']) {
      const refused = await write(name);
      expect(refused.status, name).toBe(400);
      expect(refused.json.error.message).toMatch(/^body\.guest\.name: /);
    }
    expect((await write('Zoë')).status).toBe(200);
  });

  it("follows a person's handle when it changes: the new one is refused as a guest's name, the old one is free", async () => {
    const { owner, space } = await guestSpace('gn-before');
    const as = (name: string) => comments.create(space.id, { path: 'guide.md', body: 'hi', guest: { name, key: guestKey() } }, fresh());
    expect((await as('GN_Before')).status).toBe(400);
    expect((await call(handleRoute, 'PATCH', '/v1/me/handle', { token: owner.token, body: { handle: 'gn-after' } })).status).toBe(200);
    expect((await as('GN_After')).status).toBe(400);
    expect((await as('GN_Before')).status).toBe(200);
  });

  it('computes the same skeleton of any handle in the database as in JavaScript', async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(HANDLE_PATTERN), async (handle) => {
        expect(await handleSkeletonInDatabase(handle)).toBe(nameSkeleton(handle));
      }),
      { numRuns: 200 },
    );
  });
});
