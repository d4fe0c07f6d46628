import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  backoffDelay,
  createTokenRefresher,
  isTokenExpired,
  refreshDelay,
} from '../../../src/lib/auth/token-lifecycle.ts';
import { SESSION_MAX_AGE_MS } from '../../../src/model/session.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('token arithmetic', () => {
  it('counts a token as expired 30 s early', () => {
    expect(isTokenExpired(100_000, 69_999)).toBe(false);
    expect(isTokenExpired(100_000, 70_000)).toBe(true);
  });

  it('refreshes 5 minutes before expiry', () => {
    expect(refreshDelay(HOUR, 0)).toBe(55 * MIN);
    expect(refreshDelay(HOUR, 58 * MIN)).toBe(0);
  });

  it('backs off 30 s, doubling, capped at 16 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(backoffDelay)).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 960_000, 960_000,
    ]);
  });
});

describe('the refresher under fake timers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => vi.useRealTimers());

  const networkError = () => Object.assign(new Error('offline'), { code: 'auth/network-request-failed' });

  it('refreshes 5 minutes before each expiry', async () => {
    const refresh = vi.fn(async () => ({ expiresAt: Date.now() + HOUR, authTime: 0 }));
    const refresher = createTokenRefresher({ refresh, onSessionExpired: vi.fn() });
    refresher.start({ expiresAt: HOUR, authTime: 0 });
    await vi.advanceTimersByTimeAsync(55 * MIN - 1);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(55 * MIN);
    expect(refresh).toHaveBeenCalledTimes(2);
    refresher.stop();
  });

  it('backs off on network failures: 30 s, 60 s, 120 s … then 16 min, and resets on success', async () => {
    const calls: number[] = [];
    let failing = true;
    const refresh = vi.fn(async () => {
      calls.push(Date.now());
      if (failing) throw networkError();
      return { expiresAt: Date.now() + HOUR, authTime: 0 };
    });
    const refresher = createTokenRefresher({ refresh, onSessionExpired: vi.fn() });
    refresher.start({ expiresAt: 5 * MIN, authTime: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual([0]);
    await vi.advanceTimersByTimeAsync(2 * HOUR);
    const gaps = calls.slice(1).map((t, i) => t - (calls[i] as number));
    expect(gaps.slice(0, 8)).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 960_000, 960_000]);
    failing = false;
    const before = calls.length;
    await vi.advanceTimersByTimeAsync(16 * MIN);
    expect(calls.length).toBe(before + 1);
    expect(refresher.failures).toBe(0);
    // Back on the normal schedule: the next refresh 55 minutes after the successful one.
    await vi.advanceTimersByTimeAsync(HOUR);
    expect((calls[before + 1] as number) - (calls[before] as number)).toBe(55 * MIN);
    refresher.stop();
  });

  it('a clock running ahead of the issuer refreshes once an hour, not in a loop', async () => {
    // This clock is 2 hours ahead: every token the issuer returns looks long expired.
    const SKEW = 2 * HOUR;
    const refresh = vi.fn(async () => {
      const issuedAt = Date.now() - SKEW;
      return { issuedAt, expiresAt: issuedAt + HOUR, authTime: -SKEW };
    });
    const onSessionExpired = vi.fn();
    const refresher = createTokenRefresher({ refresh, onSessionExpired });
    refresher.start({ expiresAt: HOUR - SKEW, authTime: -SKEW });
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(55 * MIN - 1);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(2);
    // The 24 hours count on the issuer's clock too: sign-in was at -2 h issuer time, i.e. 0 here.
    await vi.advanceTimersByTimeAsync(SESSION_MAX_AGE_MS - 55 * MIN - 1);
    expect(onSessionExpired).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(onSessionExpired).toHaveBeenCalledOnce();
    refresher.stop();
  });

  it('ends the session 24 hours after sign-in', async () => {
    const onSessionExpired = vi.fn();
    const refresh = vi.fn(async () => ({ expiresAt: Date.now() + HOUR, authTime: 0 }));
    const refresher = createTokenRefresher({ refresh, onSessionExpired });
    refresher.start({ expiresAt: HOUR, authTime: 0 });
    await vi.advanceTimersByTimeAsync(SESSION_MAX_AGE_MS - 1);
    expect(onSessionExpired).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(onSessionExpired).toHaveBeenCalledOnce();
    const refreshes = refresh.mock.calls.length;
    await vi.advanceTimersByTimeAsync(2 * HOUR);
    expect(refresh.mock.calls.length).toBe(refreshes);
  });

  it('a session already older than 24 hours ends at once', () => {
    vi.setSystemTime(SESSION_MAX_AGE_MS + 5);
    const onSessionExpired = vi.fn();
    createTokenRefresher({ refresh: vi.fn(), onSessionExpired }).start({
      expiresAt: Date.now() + HOUR,
      authTime: 0,
    });
    expect(onSessionExpired).toHaveBeenCalledOnce();
  });

  it('stops on a failure that is not the network', async () => {
    const onFatal = vi.fn();
    const refresh = vi.fn(async () => {
      throw Object.assign(new Error('disabled'), { code: 'auth/user-disabled' });
    });
    createTokenRefresher({ refresh, onSessionExpired: vi.fn(), onFatal }).start({
      expiresAt: 0,
      authTime: 0,
    });
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(onFatal).toHaveBeenCalledOnce();
  });
});
