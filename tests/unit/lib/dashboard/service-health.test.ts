import { describe, expect, it, vi } from 'vitest';
import {
  $serviceHealth,
  checkServiceHealth,
  HEALTH_POLL_MS,
  watchServiceHealth,
} from '../../../../src/lib/dashboard/service-health.ts';

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

  it('polls every 30 s, once however many watch, and stops when the last watcher leaves', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      let status = 'healthy';
      const fetchImpl = async () => {
        calls++;
        return json(200, { status, checks: { database: true, queue: true, worker: status === 'healthy' } });
      };
      const stopDomains = watchServiceHealth(HEALTH_POLL_MS, fetchImpl);
      const stopBanner = watchServiceHealth(HEALTH_POLL_MS, fetchImpl);
      await vi.advanceTimersByTimeAsync(0);
      expect(calls).toBe(1);
      expect($serviceHealth.get().status).toBe('healthy');
      status = 'degraded';
      await vi.advanceTimersByTimeAsync(HEALTH_POLL_MS - 1);
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toBe(2);
      expect($serviceHealth.get()).toMatchObject({ status: 'degraded', checks: { worker: false } });
      stopDomains();
      await vi.advanceTimersByTimeAsync(HEALTH_POLL_MS);
      expect(calls).toBe(3);
      stopBanner();
      await vi.advanceTimersByTimeAsync(3 * HEALTH_POLL_MS);
      expect(calls).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
