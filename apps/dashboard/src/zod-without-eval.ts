import { config } from 'zod';

// zod compiles object parsers with `new Function` unless told not to, and probes whether it may as
// soon as an object schema is built. Under the page's Content-Security-Policy (no eval) that probe
// is reported as a violation, so the dashboard turns compiling off before any schema is built.
// Imported first in main.tsx: ES modules run in import order.
config({ jitless: true });
