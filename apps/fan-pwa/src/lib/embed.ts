/**
 * The chat embedded elsewhere (docs/decisions/0050-the-website-widget.md): the website widget's
 * frame on a creator's site. There the api's fan cookie never arrives (third-party cookies are
 * blocked) and the frame's own storage is refused or partitioned, so the embed says who the fan is
 * with headers (the fan token, the site) and keeps the fan's id and token where the embedding page
 * keeps them. The fan app itself never sets one: every call then goes exactly as before.
 */
export interface Embed {
  /** Sent with every call of the fan's (the fan token and the widget's site). */
  headers: Record<string, string>;
  /** Where the fan id and name are kept instead of this frame's localStorage. */
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
