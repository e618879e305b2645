import { createDb } from './connection.ts';
import { migrateToLatest } from './migrate.ts';

const handle = createDb({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? '.data' });
try {
  const result = await migrateToLatest(handle.db);
  for (const r of result.results ?? []) console.log(`${r.status}: ${r.migrationName}`);
  console.log(`database (${handle.kind}) is at the latest migration`);
} finally {
  await handle.close();
}
