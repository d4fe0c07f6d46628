import { parseArgs } from 'node:util';
import { loadConfig } from '../start/config.ts';
import { startServer } from '../start/server.ts';
import { ensureSiteBuilt, siteIsStale } from './build-site.ts';
import { untilSignal } from './until-signal.ts';

const USAGE = `Usage: danglewatch serve [--no-worker]

  (no option)   the API, the site and the job workers in one process; builds the site when it is
                missing or older than its sources
  --no-worker   the API and the built site only, never building it (run 'danglewatch build' once
                first, or serve the site from a CDN); jobs run in 'danglewatch worker' processes on
                the same PostgreSQL (DATABASE_URL)
`;

export async function serve(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: { 'no-worker': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const worker = !values['no-worker'];
  const config = loadConfig();
  if (worker) await ensureSiteBuilt((line) => process.stdout.write(`${line}\n`));
  const { stop, logger } = await startServer(config, { worker });
  // Many API processes start at once: none of them builds, and a stale site is said out loud.
  if (!worker && siteIsStale()) {
    logger.warn("the site in dist/ is missing or older than its sources: run 'danglewatch build'");
  }
  await untilSignal(stop, logger);
  return 0;
}
