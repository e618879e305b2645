import { config } from 'zod';

// zod compiles object parsers with `new Function` unless told not to, and probes whether it may as
// soon as an object schema is built (the api client's error bodies are one). Under the fan app's
// Content-Security-Policy (no eval) that probe is reported as a violation, so compiling is turned
// off before any schema is built: main.tsx and the widget's frame import this first (ES modules
// run in import order).
config({ jitless: true });
