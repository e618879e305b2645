// Options: the Fanpilot address the extension talks to (its build's by default). A new address
// needs the browser's permission to reach it; the chats followed there start anew.
import { siteOrigin } from '@fanpilot/contracts';
import { readState } from './lib/state.ts';

const input = document.getElementById('origin') as HTMLInputElement;
const status = document.getElementById('status') as HTMLParagraphElement;

void readState().then((state) => {
  input.value = state.origin;
});

document.getElementById('options')?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const origin = siteOrigin(input.value);
  if (!origin) {
    status.textContent = 'Enter the address like https://fanpilot.example.';
    return;
  }
  const granted = await chrome.permissions.request({ origins: [`${origin}/*`] }).catch(() => false);
  if (!granted) {
    status.textContent = 'The browser did not allow the extension to reach this address.';
    return;
  }
  const state = await readState();
  await chrome.storage.local.set({ origin, follows: origin === state.origin ? state.follows : [] });
  status.textContent = `Saved. The extension now talks to ${origin}.`;
});
