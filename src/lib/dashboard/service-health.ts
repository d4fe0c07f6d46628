import { atom } from 'nanostores';
import type { ServiceHealth } from '../../model/contract.ts';
import { apiBase } from '../request/api.ts';

/** How often the dashboard asks for the scan service's health while something shows it. */
export const HEALTH_POLL_MS = 30_000;
const SCAN_HEALTH_TIMEOUT_MS = 5_000;

/** The scan service's health: the server's status, or unknown before the first answer. */
export interface ServiceHealthState {
  status: ServiceHealth['status'] | 'unknown';
  checks: ServiceHealth['checks'] | null;
  lastCheck: string | null;
  /** Milliseconds the last check took. */
  responseTime: number | null;
  error: string | null;
  /** Proof checks the server runs without (no probe credentials). */
  proofsOff?: ServiceHealth['proofs_off'];
}

export const $serviceHealth = atom<ServiceHealthState>({
  status: 'unknown',
  checks: null,
  lastCheck: null,
  responseTime: null,
  error: null,
});

function isHealth(body: unknown): body is ServiceHealth {
  const status = (body as ServiceHealth | null)?.status;
  return status === 'healthy' || status === 'degraded' || status === 'down';
}

/**
 * GET /scan/health (no token needed): 5 s time-out, one retry. A down service may answer 503 with
 * its checks; that is read too. No answer at all is 'down' with the reason.
 */
export async function checkServiceHealth(
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  now: () => number = () => performance.now(),
): Promise<ServiceHealthState> {
  const started = now();
  let error = 'No answer from the scan service';
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const response = await fetchImpl(`${apiBase()}/scan/health`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(SCAN_HEALTH_TIMEOUT_MS),
      });
      const body: unknown = await response.json().catch(() => null);
      const responseTime = Math.round(now() - started);
      const lastCheck = new Date().toISOString();
      if (isHealth(body)) {
        return {
          status: body.status,
          checks: body.checks ?? null,
          lastCheck,
          responseTime,
          error: null,
          proofsOff: Array.isArray(body.proofs_off) ? body.proofs_off : [],
        };
      }
      error = `HTTP ${response.status}: ${response.statusText}`;
      if (response.status < 500) {
        return { status: 'down', checks: null, lastCheck, responseTime, error };
      }
    } catch (cause) {
      error =
        cause instanceof Error && cause.name === 'TimeoutError'
          ? 'Request timeout'
          : 'Network request failed';
    }
  }
  return {
    status: 'down',
    checks: null,
    lastCheck: new Date().toISOString(),
    responseTime: Math.round(now() - started),
    error,
  };
}

let watchers = 0;
let timer: ReturnType<typeof setInterval> | undefined;

/**
 * Checks now and every 30 s while anything watches, one poll however many watch; returns the stop
 * function.
 */
export function watchServiceHealth(
  intervalMs = HEALTH_POLL_MS,
  fetchImpl?: Parameters<typeof checkServiceHealth>[0],
): () => void {
  watchers += 1;
  if (watchers === 1) {
    const run = () => void checkServiceHealth(fetchImpl).then((state) => $serviceHealth.set(state));
    run();
    timer = setInterval(run, intervalMs);
  }
  return () => {
    watchers -= 1;
    if (watchers === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** Checks again at once (the 'Retry' of the down banner). */
export async function recheckServiceHealth(): Promise<void> {
  $serviceHealth.set(await checkServiceHealth());
}
