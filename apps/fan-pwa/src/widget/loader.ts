// The website widget's loader (docs/widget.md): the one script a creator puts on their site,
//   <script src="{origin}/widget.js" data-creator="{username}" async></script>
// It draws a launcher in a shadow root (nothing of the page's styles reaches in, nothing of ours
// leaks out), loads nothing else until the launcher is opened, then opens the creator's chat in a
// frame on our origin. No framework: it must stay a few KB.
import { fanRoutes, urlIn } from '@fanpilot/contracts';
import { CLOSE, cleanState, type KeptState, legacyKey, MOVED, READY, STATE } from './protocol.ts';

interface LauncherConfig {
  name: string;
  color: string;
  position: 'right' | 'left';
  launcherText: string;
}

const CHAT_ICON =
  'M4 5.5A2.5 2.5 0 0 1 6.5 3h11A2.5 2.5 0 0 1 20 5.5v8a2.5 2.5 0 0 1-2.5 2.5H10l-4.2 3.6A.5.5 0 0 1 5 19.2V16h-.5A.5.5 0 0 1 4 15.5z';
const CLOSE_ICON =
  'M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4 17.6 5 12 10.6z';

/** Black or white, whichever reads on the creator's colour (WCAG relative luminance). */
function inkOn(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 ? 'black' : 'white';
}

// On a phone the open chat fills the screen under a 56 px strip in the creator's colour that holds
// the close button, so the button covers nothing of the chat (its header's "Continue in the app").
const css = (c: LauncherConfig) => `
:host{all:initial}
*{box-sizing:border-box}
.launcher{position:fixed;bottom:20px;${c.position}:20px;z-index:2147483000;display:flex;align-items:center;gap:8px;
max-width:calc(100vw - 40px);min-height:52px;padding:0 20px 0 16px;border:0;border-radius:26px;background:${c.color};color:${inkOn(c.color)};
font:600 15px/1.2 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;cursor:pointer;box-shadow:0 6px 24px rgba(15,23,42,.25)}
.launcher:hover{filter:brightness(1.08)}
.launcher:focus-visible{outline:3px solid ${c.color};outline-offset:3px}
.launcher svg{width:24px;height:24px;flex:none;fill:currentColor}
.launcher span{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.launcher[aria-expanded=true]{padding:0;width:52px;justify-content:center}
.launcher[aria-expanded=true] span{display:none}
.panel{position:fixed;bottom:84px;${c.position}:20px;z-index:2147483000;width:min(400px,calc(100vw - 40px));
height:min(640px,calc(100vh - 110px));border-radius:16px;overflow:hidden;background:white;box-shadow:0 12px 48px rgba(15,23,42,.3)}
.panel[hidden]{display:none}
iframe{display:block;width:100%;height:100%;border:0}
@media (max-width:480px){.panel{inset:0;width:100%;height:100%;border-radius:0;padding-top:56px;background:${c.color}}
.launcher[aria-expanded=true]{bottom:auto;top:8px;${c.position}:8px;width:40px;min-height:40px;height:40px;box-shadow:none}}
`;

function icon(path: string): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const p = document.createElementNS(ns, 'path');
  p.setAttribute('d', path);
  svg.append(p);
  return svg;
}

/**
 * What a loader of before kept in the page's localStorage (the fan token among it): handed to the
 * frame once, to be exchanged for the frame's own cookie, then deleted. This loader keeps nothing
 * in the page (docs/decisions/0072-the-widget-keeps-no-secret-in-the-host-page.md).
 */
function leftByOldLoader(key: string) {
  return {
    read(): KeptState {
      try {
        return cleanState(JSON.parse(localStorage.getItem(key) ?? '{}'));
      } catch {
        return {};
      }
    },
    forget() {
      try {
        localStorage.removeItem(key);
      } catch {
        // No storage: nothing was kept.
      }
    },
  };
}

function mount(script: HTMLScriptElement) {
  const username = (script.dataset.creator ?? '').trim();
  if (!username) return console.warn('Fanpilot widget: add data-creator="your-username" to the script tag.');
  const origin = new URL(script.src, location.href).origin;
  const base = `${origin}/widget/${encodeURIComponent(username)}`;

  fetch(`${origin}${urlIn(fanRoutes, 'widgetConfig', { username })}`, { credentials: 'omit' })
    .then(async (response) => {
      const body = await response.json().catch(() => null);
      if (!response.ok) throw new Error(body?.message ?? `the chat could not be loaded (${response.status})`);
      draw(body as LauncherConfig);
    })
    .catch((err: unknown) => console.warn(`Fanpilot widget: ${err instanceof Error ? err.message : err}`));

  function draw(config: LauncherConfig) {
    const host = document.createElement('div');
    host.setAttribute('data-fanpilot-widget', username);
    const root = host.attachShadow({ mode: 'open' });
    const text = css(config);
    // A constructed sheet, where the browser has them: the page's CSP (no inline styles) allows it.
    if (
      'adoptedStyleSheets' in root &&
      typeof CSSStyleSheet === 'function' &&
      'replaceSync' in CSSStyleSheet.prototype
    ) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(text);
      root.adoptedStyleSheets = [sheet];
    } else {
      const style = document.createElement('style');
      style.textContent = text;
      root.append(style);
    }
    const panel = document.createElement('div');
    panel.className = 'panel';
    panel.id = 'fanpilot-panel';
    panel.hidden = true;
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-label', `Chat with ${config.name}`);
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'launcher';
    button.setAttribute('aria-expanded', 'false');
    button.setAttribute('aria-controls', panel.id);
    const label = document.createElement('span');
    label.textContent = config.launcherText;
    const show = (open: boolean) => {
      button.replaceChildren(icon(open ? CLOSE_ICON : CHAT_ICON), label);
      button.setAttribute('aria-expanded', String(open));
      button.setAttribute('aria-label', open ? `Close the chat with ${config.name}` : config.launcherText);
      panel.hidden = !open;
    };
    show(false);

    const old = leftByOldLoader(legacyKey(origin, username));
    let frame: HTMLIFrameElement | null = null;
    const open = () => {
      if (!frame) {
        // Only now does anything of the chat load.
        frame = document.createElement('iframe');
        frame.title = `Chat with ${config.name}`;
        frame.src = `${base}?site=${encodeURIComponent(location.origin)}`;
        frame.allow = 'clipboard-write';
        panel.append(frame);
      }
      show(true);
      frame.focus();
    };
    const close = () => {
      show(false);
      button.focus();
    };
    button.addEventListener('click', () => (panel.hidden ? open() : close()));
    window.addEventListener('message', (event) => {
      if (!frame || event.source !== frame.contentWindow || event.origin !== origin) return;
      const data = event.data as { type?: unknown; state?: unknown } | null;
      if (data?.type === READY) frame.contentWindow?.postMessage({ type: STATE, state: old.read() }, origin);
      else if (data?.type === MOVED) old.forget();
      else if (data?.type === CLOSE) close();
    });
    root.append(panel, button);
    document.body.append(host);
  }
}

const current =
  (document.currentScript as HTMLScriptElement | null) ??
  document.querySelector<HTMLScriptElement>('script[data-creator][src*="/widget.js"]');
if (current) {
  if (document.body) mount(current);
  else document.addEventListener('DOMContentLoaded', () => mount(current), { once: true });
}
