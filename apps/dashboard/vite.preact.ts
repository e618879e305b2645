import path from 'node:path';

// The dashboard runs on Preact's React compatibility layer (`preact/compat`), as the fan app does
// (apps/fan-pwa/vite.preact.ts, records 0050 and 0082): React DOM alone is most of the first screen's
// JavaScript. React Router's data router imports two React 19 hooks that `preact/compat` lacks;
// `react-on-preact.js` adds them for the way this app uses the router (docs/decisions/0086-unchanged-answers-replayed-and-the-dashboard-on-preact.md).
// Absolute paths: packages/ui, @tanstack/react-query and react-router import react from folders
// that have no preact. The unit tests keep React.
const here = (file: string) => path.resolve(import.meta.dirname, file);
const preact = (file: string) => here(`node_modules/preact/${file}`);

export const REACT_ON_PREACT = [
  { find: /^react-dom\/client$/, replacement: preact('compat/client.mjs') },
  { find: /^react\/jsx-runtime$/, replacement: preact('jsx-runtime/dist/jsxRuntime.module.js') },
  { find: /^react\/jsx-dev-runtime$/, replacement: preact('jsx-runtime/dist/jsxRuntime.module.js') },
  { find: /^react-dom$/, replacement: preact('compat/dist/compat.module.js') },
  { find: /^react$/, replacement: here('react-on-preact.js') },
];
