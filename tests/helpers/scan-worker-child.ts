// A worker process for the kill -9 test: runs one scan against the given fixtures, nothing else.
import pino from 'pino';
import { runScan } from '../../src/core/scans/run.ts';
import { openDatabase } from '../../src/db/client.ts';

const [scanId, databaseUrl, settingsJson] = process.argv.slice(2);
if (!scanId || !databaseUrl || !settingsJson)
  throw new Error('usage: scan-worker-child <scanId> <databaseUrl> <settings>');
const database = await openDatabase({ databaseUrl });
process.stdout.write('ready\n');
await runScan(database.db, scanId, JSON.parse(settingsJson), pino({ level: 'silent' }));
await database.close();
