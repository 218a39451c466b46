// The web app's error sentences: field paths and request words are put for a
// person; everything else the API says passes through as it was.
import { describe, expect, it } from 'vitest';
import { humanMessage } from '../../lib/web/human-errors.ts';

describe('humanMessage', () => {
  it('turns a field error on a URL into an instruction', () => {
    expect(humanMessage('bad_request', 'body.url: must be an https:// URL.')).toBe('Enter an address that starts with https://.');
    expect(humanMessage('bad_request', 'body.url: must be an http(s) URL')).toBe('Enter an address that starts with https://.');
  });

  it("names the field in words and says zod's problem in a sentence", () => {
    expect(humanMessage('bad_request', 'body.name: Too big: expected string to have <=100 characters')).toBe('Name can be at most 100 characters.');
    expect(humanMessage('bad_request', 'body.guestName: Too small: expected string to have >=1 characters')).toBe('Guest name cannot be empty.');
    expect(humanMessage('bad_request', 'body.events: Too small: expected array to have >=1 items')).toBe('Events needs at least one choice.');
    expect(humanMessage('bad_request', 'body.role: Invalid option: expected one of "member"|"admin"')).toBe('Role is not one of the choices.');
  });

  it("keeps the domain's own words about a field, after the field's name", () => {
    expect(humanMessage('bad_request', 'body.anchor.end: must not be before start.')).toBe('End must not be before start.');
    expect(humanMessage('bad_request', 'body.guest.name: required for a new comment.')).toBe('Name: Required for a new comment.');
  });

  it('says what to do instead of which field to send', () => {
    expect(humanMessage('bad_request', 'This statement writes (INSERT); it was not run. Send write: true to change the database.')).toBe(
      'This statement writes (INSERT); it was not run. To change the database, tick “Allow writes” (shown to those who may push to this space).',
    );
  });

  it('passes other messages through', () => {
    expect(humanMessage('forbidden', 'Only the owner can delete this space.')).toBe('Only the owner can delete this space.');
  });
});
