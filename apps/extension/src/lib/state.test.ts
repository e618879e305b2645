import { describe, expect, it, vi } from 'vitest';

vi.stubGlobal('__FANPILOT_ORIGIN__', 'http://localhost:3000');
const { newFanId, newFanToken, usernameFrom } = await import('./state.ts');

describe('the extension keeps', () => {
  it('a fan token the api accepts (32 random bytes, base64url) and a new one each time', () => {
    const a = newFanToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newFanToken()).not.toBe(a);
  });

  it("fan ids of the fan app's form, with 128 random bits", () => {
    expect(newFanId()).toMatch(/^mobile_fan_ext_\d+_[0-9a-f]{32}$/);
  });

  it('a username typed, with @, or pasted as the fan chat address', () => {
    expect(usernameFrom('  cara ')).toBe('cara');
    expect(usernameFrom('@cara')).toBe('cara');
    expect(usernameFrom('https://fanpilot.example/pwa/cara?utm=x')).toBe('cara');
    expect(usernameFrom('')).toBe('');
  });
});
