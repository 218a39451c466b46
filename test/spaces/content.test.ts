import { describe, expect, it } from 'vitest';
import { contentTypeOf } from '@/lib/spaces/content.ts';

describe('contentTypeOf', () => {
  it('serves a stored type that cannot be a header value (stored before types were checked) as the guessed one', () => {
    expect(contentTypeOf('page.html', 'text/html;\u0000')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('data.bin', 'not a type')).toBe('application/octet-stream');
    expect(contentTypeOf('page.html', 'text/html; charset=iso-8859-1')).toBe('text/html; charset=iso-8859-1');
  });
});
