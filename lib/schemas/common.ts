import { z } from 'zod';

export const HANDLE_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,37}[a-z0-9])?$/;

export const HANDLE_RULE = 'must be 1 to 39 lowercase letters, digits or hyphens, starting and ending with a letter or digit';

export const handle = z.string().regex(HANDLE_PATTERN, HANDLE_RULE);

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
