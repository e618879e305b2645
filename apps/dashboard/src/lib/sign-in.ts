import { MOBILE_BREAKPOINT_PX, SIGN_IN_POPUP_CHECK_MS } from '@fanpilot/contracts';

export const SIGN_IN_PATH = '/auth/google';
export const SIGN_IN_POPUP_PATH = '/auth/google?popup=1';

const MOBILE_USER_AGENT = /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i;

export type SignInMode = 'redirect' | 'popup';

/** The sign-in popup this page opened, while it may still be open. */
let openPopup: Window | null = null;

/** docs/product.md#signing-in: phones (768 px wide or less, or a mobile user agent) navigate; others use a popup. */
export function chooseSignInMode({ width, userAgent }: { width: number; userAgent: string }): SignInMode {
  return width <= MOBILE_BREAKPOINT_PX || MOBILE_USER_AGENT.test(userAgent) ? 'redirect' : 'popup';
}

/** Where a popup of this size sits centred over the current window. */
export function popupFeatures(
  win: Pick<Window, 'screenX' | 'screenY' | 'outerWidth' | 'outerHeight'>,
): string {
  const width = 500;
  const height = 640;
  const left = Math.max(0, Math.round(win.screenX + (win.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(win.screenY + (win.outerHeight - height) / 2));
  return `popup=yes,width=${width},height=${height},left=${left},top=${top}`;
}

/**
 * Starts Google sign-in. In a popup, the server's callback page closes the popup itself; this page
 * checks every second and reloads once it is gone, so its loaders see the new session. A blocked
 * popup falls back to navigating.
 */
export function startSignIn(win: Window = window): void {
  const mode = chooseSignInMode({ width: win.innerWidth, userAgent: win.navigator.userAgent });
  if (mode === 'redirect') {
    win.location.assign(SIGN_IN_PATH);
    return;
  }
  if (openPopup && !openPopup.closed) {
    // A second click while signing in brings the popup forward instead of starting over.
    openPopup.focus();
    return;
  }
  const popup = win.open(SIGN_IN_POPUP_PATH, 'fanpilot-sign-in', popupFeatures(win));
  openPopup = popup;
  if (!popup) {
    win.location.assign(SIGN_IN_PATH);
    return;
  }
  popup.focus();
  const timer = win.setInterval(() => {
    if (!popup.closed) return;
    win.clearInterval(timer);
    openPopup = null;
    win.location.reload();
  }, SIGN_IN_POPUP_CHECK_MS);
}
