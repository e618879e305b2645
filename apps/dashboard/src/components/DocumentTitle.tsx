import { useLayoutEffect } from 'react';

/**
 * The page's title, set on the document itself. A `<title>` in the tree is hoisted to the head by
 * React 19 only; the dashboard's build runs on `preact/compat` (vite.preact.ts), which renders it
 * where it stands, and the head's own title would win.
 */
export function DocumentTitle({ text }: { text: string }) {
  useLayoutEffect(() => {
    document.title = text;
  }, [text]);
  return null;
}
