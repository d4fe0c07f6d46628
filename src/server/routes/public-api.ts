import { Hono } from 'hono';
import { type ScanQueue, startRequestedScan } from '../../core/domains/scan-requests.ts';
import { listDomains } from '../../core/domains/store.ts';
import { BODY_LIMIT_KB } from '../../core/limits.ts';
import { listScans, scanDetails } from '../../core/scans/scans.ts';
import { listFindings } from '../../core/triage/findings.ts';
import { parseInput } from '../../core/validation.ts';
import type { Db } from '../../db/client.ts';
import { findingQuerySchema, scanListQuerySchema, startScanSchema } from '../../model/schemas.ts';
import { type ApiKeyEnv, requireApiKey } from '../middleware/api-key.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { openApiDocument } from '../openapi.ts';
import { readJson } from '../validation.ts';

/**
 * The public API (/api/v1) for scripts and CI, with an API key instead of a Firebase session: the
 * dashboard's answers, from the same queries, for the key owner's own data only, each call checked
 * against what the key may do now (its maker's current role, at most a member's). Its OpenAPI
 * document is public; everything else needs a key and counts against the plan's hourly calls.
 */
export function publicApiRoutes(db: Db, deps: { queue: ScanQueue; now: () => Date; resolvers?: string[] }) {
  return new Hono<ApiKeyEnv>()
    .get('/openapi.json', (c) => {
      c.header('Cache-Control', 'public, max-age=300');
      return c.json(openApiDocument());
    })
    .use(requireApiKey(db, deps.now))
    .get('/domains', async (c) => {
      return c.json(await listDomains(db, c.get('ctx'), deps.now()));
    })
    .post('/scans', limitBody(BODY_LIMIT_KB.standard), async (c) => {
      const body = await readJson(c, startScanSchema);
      const row = await startRequestedScan(db, deps.queue, c.get('ctx'), {
        body,
        now: deps.now(),
        resolvers: deps.resolvers,
      });
      return c.json({ scan_id: row.id, status: row.status }, 202);
    })
    .get('/scans', async (c) => {
      const query = parseInput(scanListQuerySchema, c.req.query());
      return c.json(await listScans(db, c.get('ctx'), query));
    })
    .get('/scans/:id', async (c) => {
      return c.json(await scanDetails(db, c.get('ctx'), c.req.param('id')));
    })
    .get('/findings', async (c) => {
      const query = parseInput(findingQuerySchema, c.req.query());
      return c.json(await listFindings(db, c.get('ctx'), query));
    });
}
