import { SESSION_MAX_AGE_MS } from '../../model/session.ts';

/** When the ID token is refreshed, how close to expiry counts as expired, and the retry backoff. */
const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;
const EXPIRY_MARGIN_MS = 30_000;
const BACKOFF_START_MS = 30_000;
const BACKOFF_MAX_MS = 16 * 60_000;

/** A token counts as expired 30 s before its expiry, so no request leaves with a dying token. */
export function isTokenExpired(expiresAt: number, now: number): boolean {
  return now >= expiresAt - EXPIRY_MARGIN_MS;
}

export function refreshDelay(expiresAt: number, now: number): number {
  return Math.max(0, expiresAt - REFRESH_BEFORE_EXPIRY_MS - now);
}

/** The wait after the n-th consecutive network failure (n from 1): 30 s, 60 s, … capped at 16 min. */
export function backoffDelay(failures: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** Math.max(0, failures - 1));
}

function sessionEndsAt(authTime: number): number {
  return authTime + SESSION_MAX_AGE_MS;
}

export interface TokenTimes {
  /** Milliseconds since the epoch (the issuer's clock, like the other times). */
  expiresAt: number;
  /** When the user signed in, milliseconds since the epoch. */
  authTime: number;
  /** When the token was issued; after a refresh it tells how far this clock is from the issuer's. */
  issuedAt?: number;
}

interface RefresherOptions {
  /** Forces a new token and reports its times. */
  refresh: () => Promise<TokenTimes>;
  /** The 24 hours are over: sign out and tell the user. */
  onSessionExpired: () => void;
  /** A refresh failed for a reason other than the network (e.g. the account was disabled). */
  onFatal?: (error: unknown) => void;
  now?: () => number;
}

function isNetworkError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === 'auth/network-request-failed' || error instanceof TypeError;
}

/**
 * Keeps the signed-in user's ID token fresh: refreshes 5 minutes before expiry, backs off from 30 s
 * (doubling, capped at 16 minutes) while the network fails, and ends the session 24 hours after
 * sign-in.
 */
export function createTokenRefresher(options: RefresherOptions) {
  const now = options.now ?? Date.now;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let sessionTimer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let authTime = 0;
  /** This clock minus the token issuer's, learnt at each refresh; 0 until then. */
  let skew = 0;
  let running = false;

  const clear = () => {
    clearTimeout(refreshTimer);
    clearTimeout(sessionTimer);
    refreshTimer = undefined;
    sessionTimer = undefined;
  };

  const expire = () => {
    running = false;
    clear();
    options.onSessionExpired();
  };

  const runRefresh = async () => {
    if (!running) return;
    if (now() >= sessionEndsAt(authTime) + skew) return expire();
    try {
      const asked = now();
      const times = await options.refresh();
      failures = 0;
      // A token issued as we asked: the gap to its issue time is this clock's offset from the
      // issuer's. Without it, a clock running ahead would see every new token as nearly expired
      // and refresh in a loop.
      if (times.issuedAt !== undefined) skew = asked - times.issuedAt;
      schedule(times);
    } catch (error) {
      if (!running) return;
      if (!isNetworkError(error)) {
        running = false;
        clear();
        options.onFatal?.(error);
        return;
      }
      failures += 1;
      refreshTimer = setTimeout(runRefresh, backoffDelay(failures));
    }
  };

  const schedule = (times: TokenTimes) => {
    if (!running) return;
    clear();
    authTime = times.authTime;
    const sessionLeft = sessionEndsAt(times.authTime) + skew - now();
    if (sessionLeft <= 0) return expire();
    sessionTimer = setTimeout(expire, sessionLeft);
    refreshTimer = setTimeout(runRefresh, refreshDelay(times.expiresAt + skew, now()));
  };

  return {
    start(times: TokenTimes) {
      running = true;
      failures = 0;
      skew = 0;
      schedule(times);
    },
    stop() {
      running = false;
      clear();
    },
    get failures() {
      return failures;
    },
    /** This clock minus the issuer's, as learnt at the last refresh. */
    get skew() {
      return skew;
    },
  };
}
