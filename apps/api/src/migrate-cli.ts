// The one-shot database migration in the api image (compose's `migrate` service):
// `node dist/migrate-cli.js` runs packages/db's migration runner.
import '@fanpilot/db/migrate-cli';
