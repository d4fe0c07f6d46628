import pino from 'pino';
import type { Database } from '../../src/db/client.ts';
import { migrationsApplied } from '../../src/db/client.ts';
import { type AppDeps, createApp } from '../../src/server/app.ts';

/** The real app on a test database, with no built site and silent logs. */
export function testApp(database: Database, overrides: Partial<AppDeps> = {}) {
  return createApp({
    db: database.db,
    logger: pino({ level: 'silent' }),
    site: { find: () => undefined, notFound: undefined },
    csp: { mode: 'production' },
    isReady: () => migrationsApplied(database),
    trustProxy: true,
    ...overrides,
  });
}
