import '../zod-without-eval.ts';
import { FAN_ID_STORAGE_KEY, FAN_TOKEN_HEADER, siteOrigin, WIDGET_SITE_HEADER } from '@fanpilot/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import { ChatScreen } from '../chat/ChatScreen.tsx';
import { errorMessage, openWidgetChat } from '../lib/api.ts';
import { type Embed, setEmbed } from '../lib/embed.ts';
import { FAN_NAME_STORAGE_KEY } from '../lib/fanId.ts';
import { MessagePage } from '../pages/MessagePage.tsx';
import { texts } from '../texts.ts';
import '../styles.css';
import { applyCreatorColor } from './brand.ts';
import { CLOSE, cleanState, FAN_TOKEN_KEY, type KeptState, MOVED, READY, STATE } from './protocol.ts';

// The widget's chat frame (docs/widget.md). The fan's identity stays on our origin, where the host
// page cannot reach it (docs/decisions/0072-the-widget-keeps-no-secret-in-the-host-page.md): the
// api keeps it in a partitioned httpOnly cookie (one per embedding site, kept with third-party
// cookies blocked); only where the browser keeps no partitioned cookie does the frame keep a token
// in its own (partitioned) storage and send it as a header. Nothing of it goes to the page.

/** How long the frame waits for the loader's answer (what an old loader kept) before going on. */
const PARENT_WAIT_MS = 3_000;

/** 32 random bytes in base64url: the fan token, where the frame has to keep one itself. */
function newFanToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

const isToken = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);

/** The site embedding this frame: the address's ?site=, when the browser's own account agrees. */
function embeddingSite(): string | null {
  if (window.parent === window) return null;
  const claimed = siteOrigin(new URLSearchParams(window.location.search).get('site') ?? '');
  // Chromium and Safari say who embeds the frame; the address's claim must match it.
  const ancestor = window.location.ancestorOrigins?.[0];
  if (!claimed || (ancestor !== undefined && ancestor !== claimed)) return null;
  return claimed;
}

/** What an old loader kept in the page, handed over once; an empty map when nothing (or no answer). */
function handedOver(site: string): Promise<KeptState> {
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

/**
 * Whether this frame can keep a partitioned cookie (CHIPS): tried with a short-lived one of its own.
 * Chromium and Firefox keep them with third-party cookies blocked; where this fails, the api's
 * cookie would not be kept either.
 */
function keepsPartitionedCookies(): boolean {
  const attributes = 'Path=/widget; SameSite=None; Secure; Partitioned';
  try {
    // A synchronous probe of the cookie jar: the Cookie Store API is asynchronous, absent from
    // Firefox and Safari, and cannot say whether a partitioned cookie was kept.
    // biome-ignore lint/suspicious/noDocumentCookie: the probe must set a Partitioned cookie synchronously
    document.cookie = `fp_wcheck=1; Max-Age=60; ${attributes}`;
    const kept = document.cookie.split('; ').includes('fp_wcheck=1');
    // biome-ignore lint/suspicious/noDocumentCookie: the probe's cookie is removed at once
    document.cookie = `fp_wcheck=; Max-Age=0; ${attributes}`;
    return kept;
  } catch {
    return false;
  }
}

/** The frame's own storage (partitioned by the browser to the embedding site), or null when refused. */
function ownStorage(): Storage | null {
  try {
    const storage = window.localStorage;
    storage.getItem(FAN_TOKEN_KEY);
    return storage;
  } catch {
    return null;
  }
}

/** Without a partitioned cookie: the token the frame keeps in its own storage (made once), as a header. */
function frameToken(): string {
  const storage = ownStorage();
  const kept = storage?.getItem(FAN_TOKEN_KEY);
  if (isToken(kept)) return kept;
  const token = newFanToken();
  try {
    storage?.setItem(FAN_TOKEN_KEY, token);
  } catch {
    // Kept for this page's life only.
  }
  return token;
}

/** The fan id and name for this page's life: the api says them each time the chat opens. */
function memoryStorage(values: KeptState): Embed['storage'] {
  return {
    getItem: (key) => values[key] ?? null,
    setItem: (key, value) => {
      values[key] = String(value);
    },
    removeItem: (key) => {
      delete values[key];
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
  const old = await handedOver(site);
  const headers: Record<string, string> = { [WIDGET_SITE_HEADER]: site };
  if (!keepsPartitionedCookies()) headers[FAN_TOKEN_HEADER] = frameToken();
  const values: KeptState = {};
  setEmbed({ kind: 'widget', headers, storage: memoryStorage(values) });
  const legacyToken = isToken(old[FAN_TOKEN_KEY]) ? old[FAN_TOKEN_KEY] : undefined;
  try {
    const chat = await openWidgetChat(username, legacyToken);
    // The old loader's token now opens nothing: the page may forget it.
    if (legacyToken) window.parent.postMessage({ type: MOVED }, site);
    if (chat.fanId) values[FAN_ID_STORAGE_KEY] = chat.fanId;
    if (chat.fanName) values[FAN_NAME_STORAGE_KEY] = chat.fanName;
    // The creator's colour, as on the launcher.
    applyCreatorColor(document.documentElement, chat.color);
    document.body.classList.add('widget-frame');
  } catch (err) {
    root.render(
      <MessagePage
        heading={texts.widgetUnavailableHeading}
        text={errorMessage(err, texts.widgetUnavailableText)}
      />,
    );
    return;
  }
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
