// The names guests give themselves (comments, guest database writes) are
// shown beside people's names, so a guest must not pass for someone: a person
// with an account (their handle), "Deleted user", or a name the service or
// its owners go by. Names are compared by a confusable skeleton in the manner
// of Unicode TS #39: compatibility-decomposed (NFKD), without invisible
// characters and combining marks, look-alike letters of other scripts read as
// the Latin ones, case folded, look-alike ASCII (i/l/1/|, 0/o, rn/m, vv/w)
// folded together, and any run of spaces, dots, dashes and underscores as one
// separator. The skeleton is for comparing only; the name is kept as given
// (cleaned).
import { query } from '../db/client.ts';
import { ApiError } from '../core/errors.ts';

export const DELETED_USER = 'Deleted user';

/** Names that speak for the service or for a space's owners ("Administrator" is how a live app shows its owner). */
const RESERVED_NAMES = [DELETED_USER, 'Administrator', 'Admin', 'Owner', 'Moderator', 'Atrium', 'Support', 'Security', 'System', 'Staff', 'Root'];

// Letters of other scripts, and Latin letters outside ASCII, that look like a
// Latin letter (after NFKD and with marks removed), case by case: Greek Η is
// H, but η is n. A compact part of TS #39's confusables.txt.
const LOOK_ALIKES: Record<string, string> = Object.fromEntries(
  [
    // Cyrillic
    'Аa Вb Сc Еe Нh Іi Јj Кk Мm Оo Рp Ѕs Тt Уy Үy Хx Ԛq Ԝw Ӏl Ьb',
    'аa вb сc ԁd еe һh іi јj кk ӏl мm оo рp ԛq ѕs тt уy ԝw хx ьb',
    // Greek
    'Αa Βb Εe Ζz Ηh Ιi Κk Μm Νn Οo Ρp Τt Υy Χx',
    'αa βb γy εe ηn ιi κk νv οo ρp τt υu χx ωw',
    // Latin beyond ASCII: dotless i, alpha, small capitals, letters with strokes
    'ıi ɩi ɑa ɡg ǀl ʟl ᴀa ʙb ᴄc ᴅd ᴇe ɢg ʜh ɪi ᴊj ᴋk ᴍm ɴn ᴏo ᴘp ʀr ꜱs ᴛt ᴜu ᴠv ᴡw ʏy ᴢz øo đd ħh łl ŧt',
  ].flatMap((line) => line.split(' ').map((pair) => [pair[0], pair[1]])),
);

// After lowercasing: ASCII that reads as other ASCII. Handles are written in
// [a-z0-9-], so these are also what a handle's skeleton is made of (in SQL: the
// atrium_handle_skeleton function of the handle_skeleton migration).
const ASCII_FOLDS: Record<string, string> = { '0': 'o', '1': 'l', i: 'l', '|': 'l' };
const SEQUENCE_FOLDS: [string, string][] = [
  ['rn', 'm'],
  ['vv', 'w'],
];
const SEPARATOR = '-';
const SEPARATORS = /[\s_.\-\u2010-\u2015\u2212\u00b7\u2022\u30fb]+/gu;

/** A guest's name as stored and shown: NFKC, without invisible (default-ignorable) code points, spaces collapsed. */
export function cleanGuestName(name: string): string {
  return name.normalize('NFKC').replace(/\p{Default_Ignorable_Code_Point}/gu, '').replace(/\s+/gu, ' ').trim();
}

/** What two names are compared by (TS #39's skeleton, case folded); see the top of this file. */
export function nameSkeleton(name: string): string {
  const bare = name.normalize('NFKD').replace(/[\p{Default_Ignorable_Code_Point}\p{M}]/gu, '');
  const latin = [...bare].map((c) => LOOK_ALIKES[c] ?? c).join('').toLowerCase();
  let folded = [...latin].map((c) => ASCII_FOLDS[c] ?? c).join('');
  for (const [from, to] of SEQUENCE_FOLDS) folded = folded.replaceAll(from, to);
  return folded.replace(SEPARATORS, SEPARATOR).replace(/^-|-$/g, '');
}

/** A handle's skeleton as the database computes it (the test checks that it is nameSkeleton's). */
export async function handleSkeletonInDatabase(handle: string): Promise<string> {
  const [row] = await query<{ skeleton: string }>('SELECT atrium_handle_skeleton($1::text) AS skeleton', [handle]);
  return row.skeleton;
}

const reservedSkeletons = new Map(RESERVED_NAMES.map((name) => [nameSkeleton(name), name]));

/**
 * Refuses (400, naming `field`) a guest's cleaned name that is empty, starts
 * with "@", or reads as a reserved name or someone's handle.
 */
export async function checkGuestName(name: string, field: string): Promise<void> {
  if (!name) throw new ApiError('bad_request', `${field}: must hold visible characters.`);
  const skeleton = nameSkeleton(name);
  if (skeleton.startsWith('@')) throw new ApiError('bad_request', `${field}: must not start with "@" (handles belong to people with an account).`);
  const reserved = reservedSkeletons.get(skeleton);
  if (reserved) throw new ApiError('bad_request', `${field}: "${reserved}" is reserved.`);
  // "handleSkeleton" is kept by a trigger with atrium_handle_skeleton (see its migration).
  const [taken] = await query('SELECT 1 FROM "User" WHERE "handleSkeleton" = $1 LIMIT 1', [skeleton]);
  if (taken) throw new ApiError('bad_request', `${field}: that is the handle of someone with an account; choose another name.`);
}
