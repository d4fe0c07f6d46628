import { parseArgs } from 'node:util';
import { loadConfig } from '../start/config.ts';
import { startWorkerProcess } from '../start/worker.ts';
import { untilSignal } from './until-signal.ts';

const USAGE = `Usage: danglewatch worker

Runs the job workers only (scans, the scheduler, alerts, webhook deliveries, the reaper, the
purges) on the PostgreSQL named by DATABASE_URL, next to API processes started with
'danglewatch serve --no-worker'. Start as many as the scans need.
`;

export async function worker(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, strict: true, options: { help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const { stop, logger } = await startWorkerProcess(loadConfig());
  await untilSignal(stop, logger);
  return 0;
}
