import { describe, expect, it } from 'vitest';
import { checkServiceHealth } from '../../../../src/lib/dashboard/service-health.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('GET /scan/health in the dashboard', () => {
  it("reads the server's status and checks, with the time the check took", async () => {
    let t = 0;
    const state = await checkServiceHealth(
      async () => json(200, { status: 'degraded', checks: { database: true, queue: true, worker: false } }),
      () => (t += 12),
    );
    expect(state).toMatchObject({
      status: 'degraded',
      checks: { database: true, queue: true, worker: false },
      responseTime: 12,
      error: null,
    });
  });

  it('reads a 503 answer that still says what is down', async () => {
    const state = await checkServiceHealth(async () =>
      json(503, { status: 'down', checks: { database: false, queue: false, worker: false } }),
    );
    expect(state.status).toBe('down');
    expect(state.checks?.database).toBe(false);
  });

  it('is down, with the reason, when nothing answers after one retry', async () => {
    let calls = 0;
    const state = await checkServiceHealth(async () => {
      calls++;
      throw new TypeError('fetch failed');
    });
    expect(calls).toBe(2);
    expect(state).toMatchObject({ status: 'down', checks: null, error: 'Network request failed' });
  });
});
