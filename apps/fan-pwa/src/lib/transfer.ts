import { FAN_TRANSFER_FRAGMENT_KEY } from '@fanpilot/contracts';

/** The token of a transfer link (`…#transfer=<token>`) this page was opened with, or null. */
export function readTransferToken(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const token = params.get(FAN_TRANSFER_FRAGMENT_KEY)?.trim();
  return token && /^[A-Za-z0-9_-]{1,100}$/.test(token) ? token : null;
}

/** Takes the token out of the address, so a reload or a shared address does not carry it. */
export function clearTransferFragment(
  location: Pick<Location, 'pathname' | 'search'>,
  history: Pick<History, 'replaceState' | 'state'>,
) {
  history.replaceState(history.state, '', `${location.pathname}${location.search}`);
}
