import { describe, expect, it } from 'vitest';
import { needsIosInstallHint } from './browser.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const IPAD_OS =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

const env = { userAgent: IPHONE, maxTouchPoints: 5, standalone: false, framed: false };

describe('the iPhone install hint', () => {
  it('shows in an iPhone or iPad browser, where there is no install prompt', () => {
    expect(needsIosInstallHint(env)).toBe(true);
    // iPadOS Safari calls itself a Mac; a touch screen tells it apart.
    expect(needsIosInstallHint({ ...env, userAgent: IPAD_OS })).toBe(true);
  });

  it('not once installed, not in a frame, not on a Mac or Android', () => {
    expect(needsIosInstallHint({ ...env, standalone: true })).toBe(false);
    expect(needsIosInstallHint({ ...env, framed: true })).toBe(false);
    expect(needsIosInstallHint({ ...env, userAgent: IPAD_OS, maxTouchPoints: 0 })).toBe(false);
    expect(needsIosInstallHint({ ...env, userAgent: ANDROID })).toBe(false);
  });
});
