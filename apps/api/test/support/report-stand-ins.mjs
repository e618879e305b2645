// Preloaded (`node --import`) by tests that start the server: prints a line for each dev-only
// stand-in the process loads, so a test can tell that a production start loads none (record 0070).
import { registerHooks } from 'node:module';

const STAND_INS = ['@fanpilot/local-stripe', 'oauth2-mock-server'];

registerHooks({
  resolve(specifier, context, next) {
    if (STAND_INS.includes(specifier)) process.stderr.write(`stand-in loaded: ${specifier}\n`);
    return next(specifier, context);
  },
});
