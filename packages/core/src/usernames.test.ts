import { describe, expect, it } from 'vitest';
import { firstFreeUsername, usernameBase } from './usernames.ts';

describe('usernames', () => {
  it('comes from the e-mail local part, URL-safe', () => {
    expect(usernameBase({ email: 'Jane.Doe+yt@gmail.com', name: 'Jane' })).toBe('jane-doe-yt');
    expect(usernameBase({ email: 'creator@localhost' })).toBe('creator');
    expect(usernameBase({ name: 'Zoë Ångström' })).toBe('zoe-angstrom');
    expect(usernameBase({})).toBe('creator');
  });

  it('avoids route names and one-letter names', () => {
    expect(usernameBase({ email: 'admin@x.io' })).toBe('admin-fan');
    expect(usernameBase({ email: 'a@x.io' })).toBe('a-fan');
  });

  it('takes the first free variant', () => {
    expect(firstFreeUsername('sam', [])).toBe('sam');
    expect(firstFreeUsername('sam', ['sam', 'SAM-2'])).toBe('sam-3');
  });
});
