/**
 * The chat embedded elsewhere (docs/decisions/0050-the-website-widget.md): the website widget's
 * frame on a creator's site. There the fan app's cookie never arrives; the frame's calls carry the
 * site (and, only where no partitioned cookie is kept, the fan token) as headers, and the fan id and
 * name are what the api says this browser holds (record 0072), kept for the page's life. The fan app
 * itself never sets one: every call then goes exactly as before.
 */
export interface Embed {
  /** Sent with every call of the fan's (the fan token and the widget's site). */
  headers: Record<string, string>;
  /** Where the fan id and name are kept instead of localStorage (never the host page's). */
  storage: {
    getItem(key: string): string | null;
    setItem(key: string, value: string): void;
    removeItem(key: string): void;
  };
  /** Which embed: the website widget's frame. */
  kind: 'widget';
}

let current: Embed | null = null;

export function setEmbed(embed: Embed | null): void {
  current = embed;
}

/** The embed this page runs in, or null in the fan app. */
export function embed(): Embed | null {
  return current;
}

/** `fetch` with the embed's headers added (the fan app's calls go unchanged). */
export const embedFetch: typeof fetch = (input, init) => {
  const e = current;
  if (!e) return fetch(input, init);
  const headers = new Headers(init?.headers);
  for (const [name, value] of Object.entries(e.headers)) headers.set(name, value);
  return fetch(input, { ...init, headers });
};
