import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { Account } from '../../core/users/users.ts';
import { SESSION_MAX_AGE_MS } from '../../model/session.ts';
import type { AppEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import type { DecodedIdToken, TokenVerifier } from './verifier.ts';

/** Sessions end this long after sign-in, whatever the token's own expiry says. */
const SESSION_MAX_AGE_SECONDS = SESSION_MAX_AGE_MS / 1000;

export interface AuthDeps {
  verifier: TokenVerifier;
  /** The web configuration GET /auth/config hands the browser. */
  publicConfig: import('../../model/firebase-config.ts').PublicAuthConfig;
  /** Milliseconds since the epoch; tests move it to age a session. */
  now?: () => number;
  /**
   * The account's row. A token the verifier remembered is checked with Firebase again when it has
   * none: that is a first sign-in, or an account deleted meanwhile (possibly through another
   * process), whose remembered token must not bring the account back.
   */
  findAccount?: (uid: string) => Promise<Account | undefined>;
}

export interface AuthedEnv {
  /** `account`: the caller's row when the check above read it, so that routes need not read it again. */
  Variables: AppEnv['Variables'] & { token: DecodedIdToken; account?: Account };
}

const UNAUTHENTICATED = 'Authentication required';

/**
 * Lets a request through only with a valid Firebase ID token of our project, issued for a sign-in
 * less than 24 hours old. Every failure answers 401 'Authentication required' with a code saying
 * why, so the client can tell an expired session (sign out with a message) from a bad token.
 */
export function requireAuth(deps: AuthDeps | undefined): MiddlewareHandler<AuthedEnv> {
  return async (c, next) => {
    if (!deps) throw new ApiError(503, 'AUTH_NOT_CONFIGURED', 'Sign-in is not configured on this server');
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const token = match?.[1];
    if (!token) throw new ApiError(401, 'AUTH_REQUIRED', UNAUTHENTICATED);
    const verify = (fresh: boolean) =>
      deps.verifier.verifyIdToken(token, fresh ? { fresh } : undefined).catch((error: unknown) => {
        throw verificationFailure(error, c.get('logger'));
      });
    let decoded = await verify(false);
    let account: Account | undefined;
    // Only a remembered token can be older than its account's deletion: a fresh check asks Firebase.
    // The account row is read outside the token's error handling: a database that went away is a
    // 503, never a 401 that would sign the user out.
    if (deps.verifier.remembersTokens && deps.findAccount) {
      account = await deps.findAccount(decoded.uid);
      if (!account) decoded = await verify(true);
    }
    const now = (deps.now ?? Date.now)() / 1000;
    if (!Number.isFinite(decoded.auth_time) || now - decoded.auth_time > SESSION_MAX_AGE_SECONDS) {
      throw new ApiError(401, 'SESSION_EXPIRED', UNAUTHENTICATED);
    }
    c.set('token', decoded);
    if (account) c.set('account', account);
    await next();
  };
}

/** Why a token was refused, as the answer the client gets. */
function verificationFailure(error: unknown, logger: Logger): ApiError {
  const code = (error as { code?: string }).code ?? '';
  if (code === 'auth/user-disabled') return new ApiError(403, 'ACCESS_DENIED', 'Access denied');
  // Firebase (or the emulator) could not be asked: not the user's fault, so not a 401 that
  // would send them to sign in again.
  if (code.startsWith('app/network') || code === 'auth/internal-error') {
    logger.error({ err: error }, 'could not verify an ID token');
    return new ApiError(
      503,
      'AUTH_UNAVAILABLE',
      'The sign-in service is unavailable. Please try again shortly.',
    );
  }
  logger.info({ code }, 'rejected an ID token');
  return new ApiError(
    401,
    code === 'auth/id-token-expired' ? 'TOKEN_EXPIRED' : 'INVALID_TOKEN',
    UNAUTHENTICATED,
  );
}
