import { FAN_TOKEN_HEADER, siteOrigin, WIDGET_SITE_HEADER } from '@fanpilot/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import { ChatScreen } from '../chat/ChatScreen.tsx';
import { type Embed, setEmbed } from '../lib/embed.ts';
import { MessagePage } from '../pages/MessagePage.tsx';
import { texts } from '../texts.ts';
import '../styles.css';
import { CLOSE, cleanState, FAN_TOKEN_KEY, type KeptState, READY, SAVE, STATE } from './protocol.ts';

/** How long the frame waits for the loader's kept values before starting with none. */
const PARENT_WAIT_MS = 3_000;

/** 32 random bytes in base64url: the fan token this browser, on this site, sends as a header. */
function newFanToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The site embedding this frame: the address's ?site=, when the browser's own account agrees. */
function embeddingSite(): string | null {
  if (window.parent === window) return null;
  const claimed = siteOrigin(new URLSearchParams(window.location.search).get('site') ?? '');
  // Chromium and Safari say who embeds the frame; the address's claim must match it.
  const ancestor = window.location.ancestorOrigins?.[0];
  if (!claimed || (ancestor !== undefined && ancestor !== claimed)) return null;
  return claimed;
}

/** Asks the loader on `site` for what it keeps; an empty map when it does not answer. */
function keptState(site: string): Promise<KeptState> {
  return new Promise((resolve) => {
    const done = (state: KeptState) => {
      window.removeEventListener('message', listener);
      clearTimeout(timer);
      resolve(state);
    };
    const listener = (event: MessageEvent) => {
      if (event.source !== window.parent || event.origin !== site) return;
      const data = event.data as { type?: unknown; state?: unknown } | null;
      if (data?.type === STATE) done(cleanState(data.state));
    };
    const timer = setTimeout(() => done({}), PARENT_WAIT_MS);
    window.addEventListener('message', listener);
    window.parent.postMessage({ type: READY }, site);
  });
}

/** Storage backed by the loader's: reads from the map, every change sent back to be kept. */
function parentStorage(site: string, state: KeptState): Embed['storage'] {
  const save = () => window.parent.postMessage({ type: SAVE, state: { ...state } }, site);
  return {
    getItem: (key) => state[key] ?? null,
    setItem: (key, value) => {
      state[key] = String(value);
      save();
    },
    removeItem: (key) => {
      delete state[key];
      save();
    },
  };
}

async function start() {
  const root = createRoot(document.getElementById('root')!);
  const username = decodeURIComponent(window.location.pathname.split('/')[2] ?? '');
  const site = embeddingSite();
  if (!site || !username) {
    root.render(<MessagePage heading={texts.widgetOnlyHeading} text={texts.widgetOnlyText} />);
    return;
  }
  const state = await keptState(site);
  const storage = parentStorage(site, state);
  let token = state[FAN_TOKEN_KEY];
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) {
    token = newFanToken();
    storage.setItem(FAN_TOKEN_KEY, token);
  }
  setEmbed({
    kind: 'widget',
    headers: { [FAN_TOKEN_HEADER]: token, [WIDGET_SITE_HEADER]: site },
    storage,
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !document.querySelector('dialog[open]')) {
      window.parent.postMessage({ type: CLOSE }, site);
    }
  });
  // The fan app's settings (docs/product.md#staying-fresh).
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: { staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false, retry: false },
      mutations: { retry: false },
    },
  });
  root.render(
    <QueryClientProvider client={queryClient}>
      <ChatScreen username={username} />
    </QueryClientProvider>,
  );
}

void start();
