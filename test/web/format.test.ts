import { describe, expect, it } from 'vitest';
import { plural } from '@/lib/web/format.ts';

describe('plural', () => {
  it('names one thing in the singular and any other count in the plural, with grouped digits', () => {
    expect(plural(1, 'visitor')).toBe('1 visitor');
    expect(plural(0, 'visitor')).toBe('0 visitors');
    expect(plural(2, 'reply', 'replies')).toBe('2 replies');
    expect(plural(1, 'reply', 'replies')).toBe('1 reply');
    expect(plural(12345, 'view')).toBe('12,345 views');
  });
});
