import { TEXT } from '../texts.ts';

/** The first stop for keyboard users: straight to the page's main content. */
export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only z-[200] rounded-lg bg-white px-4 py-2 font-semibold text-brand-700 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
    >
      {TEXT.common.skipToContent}
    </a>
  );
}
