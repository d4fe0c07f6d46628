import { atom } from 'nanostores';
import type { ApiClient } from './client.ts';
import { toRequestError } from './errors.ts';

export const HEALTH_POLL_MS = 30_000;
export const SCAN_HEALTH_TIMEOUT_MS = 5_000;

interface ScanHealth {
  healthy: boolean;
  responseTime: number;
  error?: string;
}

/** GET /scan/health: 5 s timeout and 1 retry; an OK answer is healthy, with its response time. */
export async function checkScanHealth(client: ApiClient, now = () => performance.now()): Promise<ScanHealth> {
  const started = now();
  try {
    await client.get('/scan/health', { timeoutMs: SCAN_HEALTH_TIMEOUT_MS, retries: 1 });
    return { healthy: true, responseTime: Math.round(now() - started) };
  } catch (error) {
    return {
      healthy: false,
      responseTime: Math.round(now() - started),
      error: toRequestError(error).message,
    };
  }
}

interface PollState {
  connected: boolean;
  lastError: string | null;
  /** Consecutive failed checks. */
  retryCount: number;
  lastCheck: string | null;
}

/**
 * Runs `check` now and then every `intervalMs` (the health poll: 30 s; a generic service check:
 * 60 s), recording connected or the last error and a retry count. Returns a stop function.
 */
export function startPoll(
  check: () => Promise<unknown>,
  onState: (state: PollState) => void,
  intervalMs = HEALTH_POLL_MS,
): () => void {
  let state: PollState = { connected: false, lastError: null, retryCount: 0, lastCheck: null };
  let stopped = false;
  const run = async () => {
    try {
      await check();
      state = { connected: true, lastError: null, retryCount: 0, lastCheck: new Date().toISOString() };
    } catch (error) {
      state = {
        connected: false,
        lastError: toRequestError(error).message,
        retryCount: state.retryCount + 1,
        lastCheck: new Date().toISOString(),
      };
    }
    if (!stopped) onState(state);
  };
  void run();
  const timer = setInterval(run, intervalMs);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/** The API's health as the dashboard shows it; updated by watchApiHealth(). */
export const $apiHealth = atom<PollState>({
  connected: false,
  lastError: null,
  retryCount: 0,
  lastCheck: null,
});

/** Polls GET /health every 30 s into $apiHealth; returns a stop function. */
export function watchApiHealth(client: ApiClient, intervalMs = HEALTH_POLL_MS): () => void {
  return startPoll(
    () => client.get('/health', { retries: 0 }),
    (state) => $apiHealth.set(state),
    intervalMs,
  );
}
