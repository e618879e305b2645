import path from 'node:path';

// React's runtime alone is about 60 KB gzipped. The fan app's builds (the app, and the website
// widget's chat frame) run the same components on Preact's React compatibility layer
// (`preact/compat`, ~4 KB): docs/decisions/0050-the-website-widget.md measured it for the frame,
// docs/decisions/0082-… for the app. The unit tests and the dashboard keep React.
// Absolute paths: packages/ui and @tanstack/react-query import react from folders that have no preact.
const preact = (file: string) => path.resolve(import.meta.dirname, 'node_modules/preact', file);

export const REACT_ON_PREACT = [
  { find: /^react-dom\/client$/, replacement: preact('compat/client.mjs') },
  { find: /^react\/jsx-runtime$/, replacement: preact('jsx-runtime/dist/jsxRuntime.module.js') },
  { find: /^react\/jsx-dev-runtime$/, replacement: preact('jsx-runtime/dist/jsxRuntime.module.js') },
  { find: /^react-dom$/, replacement: preact('compat/dist/compat.module.js') },
  { find: /^react$/, replacement: preact('compat/dist/compat.module.js') },
];
