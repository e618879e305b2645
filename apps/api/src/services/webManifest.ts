import {
  brandNameOf,
  FAN_APP_BACKGROUND_COLOR,
  FAN_APP_THEME_COLOR,
  sizedImageUrl,
  type WebAppManifest,
} from '@fanpilot/contracts';

const SHORT_NAME_MAX = 12;

/** Launcher labels are short: the first word when the whole name does not fit. */
export function shortNameFor(name: string): string {
  const clean = name.trim().replace(/\s+/g, ' ');
  if (clean.length <= SHORT_NAME_MAX) return clean;
  const first = clean.split(' ')[0] ?? clean;
  return first.length <= SHORT_NAME_MAX ? first : `${clean.slice(0, SHORT_NAME_MAX - 1)}…`;
}

/**
 * The manifest that makes /pwa/{username} an app of its own, under the brand the creator set up at
 * onboarding: the chatbot's name (the creator's name when there is no chatbot) and the picture,
 * offered resized to 192 and 512 pixels (GET /objects/…?size=N); the bundled icons follow, for a
 * creator without one.
 */
export function webManifestFor(creator: {
  name: string;
  username: string;
  profileImageUrl: string | null;
  chatbotName?: string | null | undefined;
}): WebAppManifest {
  const home = `/pwa/${encodeURIComponent(creator.username)}`;
  const brand = brandNameOf(creator);
  return {
    id: home,
    name: brand,
    short_name: shortNameFor(brand),
    description: `Chat with ${brand}`,
    lang: 'en',
    start_url: home,
    scope: home,
    display: 'standalone',
    orientation: 'portrait',
    theme_color: FAN_APP_THEME_COLOR,
    background_color: FAN_APP_BACKGROUND_COLOR,
    icons: [
      // The creator's photo resized to the installers' sizes (not the whole upload at 'any').
      ...(creator.profileImageUrl
        ? ([192, 512] as const).map((size) => ({
            src: sizedImageUrl(creator.profileImageUrl as string, size),
            sizes: `${size}x${size}`,
            type: 'image/png',
            purpose: 'any' as const,
          }))
        : []),
      { src: '/fan/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/fan/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/fan/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}
