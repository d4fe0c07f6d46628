import { migrateDatabase, openDatabase } from '../db/client.ts';
import { loadConfig } from '../start/config.ts';

export async function migrate(): Promise<number> {
  const config = loadConfig();
  const database = await openDatabase(
    config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : { dataDir: config.dataDir },
  );
  try {
    await migrateDatabase(database);
    process.stdout.write(`Migrations applied (${database.kind}).\n`);
    return 0;
  } finally {
    await database.close();
  }
}
