import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseSignInMode, startSignIn } from './sign-in.ts';

const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
const ANDROID_TABLET_UA =
  'Mozilla/5.0 (Linux; Android 14; SM-X910) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

describe('chooseSignInMode', () => {
  it('navigates on widths of 768 px or less', () => {
    expect(chooseSignInMode({ width: 390, userAgent: DESKTOP_UA })).toBe('redirect');
    expect(chooseSignInMode({ width: 768, userAgent: DESKTOP_UA })).toBe('redirect');
  });

  it('opens a popup on wider desktop browsers', () => {
    expect(chooseSignInMode({ width: 769, userAgent: DESKTOP_UA })).toBe('popup');
    expect(chooseSignInMode({ width: 1440, userAgent: DESKTOP_UA })).toBe('popup');
  });

  it('navigates on a mobile user agent whatever the width', () => {
    expect(chooseSignInMode({ width: 1024, userAgent: IPHONE_UA })).toBe('redirect');
    expect(chooseSignInMode({ width: 1280, userAgent: ANDROID_TABLET_UA })).toBe('redirect');
  });
});

describe('startSignIn', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function fakeWindow(width: number, popup: { closed: boolean; focus: () => void } | null) {
    vi.useFakeTimers();
    return {
      innerWidth: width,
      screenX: 0,
      screenY: 0,
      outerWidth: width,
      outerHeight: 900,
      navigator: { userAgent: DESKTOP_UA },
      location: { assign: vi.fn(), reload: vi.fn() },
      open: vi.fn(() => popup),
      setInterval: (fn: () => void, ms: number) => setInterval(fn, ms),
      clearInterval: (id: ReturnType<typeof setInterval>) => clearInterval(id),
    };
  }

  it('opens the popup and reloads within a second of it closing', () => {
    const popup = { closed: false, focus: vi.fn() };
    const win = fakeWindow(1440, popup);
    startSignIn(win as unknown as Window);
    expect(win.open).toHaveBeenCalledWith('/auth/google?popup=1', expect.any(String), expect.any(String));
    vi.advanceTimersByTime(3_000);
    expect(win.location.reload).not.toHaveBeenCalled();
    popup.closed = true;
    vi.advanceTimersByTime(1_000);
    expect(win.location.reload).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5_000);
    expect(win.location.reload).toHaveBeenCalledTimes(1);
  });

  it('brings an open popup forward on a second click instead of opening another', () => {
    const popup = { closed: false, focus: vi.fn() };
    const win = fakeWindow(1440, popup);
    startSignIn(win as unknown as Window);
    startSignIn(win as unknown as Window);
    expect(win.open).toHaveBeenCalledTimes(1);
    expect(popup.focus).toHaveBeenCalledTimes(2);
    popup.closed = true;
    vi.advanceTimersByTime(1_000);
    expect(win.location.reload).toHaveBeenCalledTimes(1);
  });

  it('navigates when the popup is blocked', () => {
    const win = fakeWindow(1440, null);
    startSignIn(win as unknown as Window);
    expect(win.location.assign).toHaveBeenCalledWith('/auth/google');
  });

  it('navigates without a popup on a phone-sized window', () => {
    const win = fakeWindow(390, { closed: false, focus: vi.fn() });
    startSignIn(win as unknown as Window);
    expect(win.open).not.toHaveBeenCalled();
    expect(win.location.assign).toHaveBeenCalledWith('/auth/google');
  });
});
