import { z } from 'zod';

// --- Text inputs ---
//
// Every string a request carries (params, query, body) is built on text():
// PostgreSQL refuses NUL and unpaired surrogates (a 500 at the first query),
// and control characters in a name, id or header-bound value only ever break
// something later (a header, a terminal, a log line).

/** C0 controls, DEL and C1 controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, less tab, line feed and carriage return, for multi-line text such as messages. */
const CONTROL_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

export const TEXT_RULE = 'must not contain control characters';
export const TEXT_RULE_MULTILINE = 'must not contain control characters other than tab and line breaks';
export const UNICODE_RULE = 'must be valid Unicode text (it holds an unpaired surrogate)';

/**
 * The check behind text(), for the few string schemas zod builds itself
 * (z.email()); everything else should call text().
 */
export function textRules(options: { multiline?: boolean } = {}) {
  const control = options.multiline ? CONTROL_MULTILINE : CONTROL;
  const rule = options.multiline ? TEXT_RULE_MULTILINE : TEXT_RULE;
  return (payload: z.core.ParsePayload<string>) => {
    const value = payload.value;
    if (control.test(value)) payload.issues.push({ code: 'custom', input: value, message: rule });
    else if (!value.isWellFormed()) payload.issues.push({ code: 'custom', input: value, message: UNICODE_RULE });
  };
}

/**
 * The one string schema for request input: refuses control characters (tab,
 * CR and LF too unless `multiline`) and unpaired surrogates, before any length
 * or pattern check, so the first issue (the one the answer names) says why.
 */
export function text(options: { multiline?: boolean } = {}) {
  return z.string().check(textRules(options));
}

/** PostgreSQL's int: the largest number an int column takes. */
export const INT_MAX = 2 ** 31 - 1;

/**
 * A whole number written in a query string or path: digits only (no sign,
 * exponent, hex or spaces), from min to max.
 */
export function wholeNumber(min: number, max: number, rule = `must be a whole number from ${min} to ${max}`) {
  return text()
    .regex(/^\d{1,16}$/, rule)
    .transform(Number)
    .refine((n) => n >= min && n <= max, rule);
}

// --- Media types ---

/** RFC 9110 token characters. */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
/** A quoted-string of printable ASCII (no obs-text: a header value must stay ASCII). */
const QUOTED = '"(?:[ !#-\\[\\]-~]|\\\\[ -~])*"';

/** type/subtype with optional `; name=value` parameters, value a token or quoted-string. */
export const MEDIA_TYPE_PATTERN = new RegExp(`^${TOKEN}/${TOKEN}(?: *; *${TOKEN}=(?:${TOKEN}|${QUOTED}))*$`);
export const MEDIA_TYPE_MAX = 255;
export const MEDIA_TYPE_RULE = 'must be a media type such as text/html or text/html; charset=utf-8';

/**
 * A Content-Type that will go out in a header: stored types are served as they
 * are, so anything a Headers object would refuse must be refused here.
 */
export const mediaType = text().max(MEDIA_TYPE_MAX).regex(MEDIA_TYPE_PATTERN, MEDIA_TYPE_RULE);

export function isMediaType(value: string): boolean {
  return value.length <= MEDIA_TYPE_MAX && MEDIA_TYPE_PATTERN.test(value);
}

/** A SHA-256 as the API writes it: 64 lowercase hexadecimal characters. */
export const SHA256_PATTERN = /^[0-9a-f]{64}$/;

export const HANDLE_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,37}[a-z0-9])?$/;

export const HANDLE_RULE = 'must be 1 to 39 lowercase letters, digits or hyphens, starting and ending with a letter or digit';

export const handle = text().regex(HANDLE_PATTERN, HANDLE_RULE);

export const slug = handle;

export const user = z
  .object({
    id: z.string(),
    handle,
    name: z.string().nullable(),
  })
  .meta({ id: 'User' });

export const timestamp = z.number().int().meta({ description: 'Milliseconds since the Unix epoch.' });

export const errorBody = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'bad_request, unauthorized, forbidden, not_found, conflict, gone, too_large, rate_limited, …' }),
      message: z.string(),
    }),
  })
  .meta({ id: 'Error' });
