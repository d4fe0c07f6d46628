import type { MiddlewareHandler } from 'hono';
import type { WorkspaceContext } from '../../core/access.ts';
import { findApiKey, markApiKeyUsed } from '../../core/api-keys/api-keys.ts';
import { API_KEY_LAST_USED_RESOLUTION_SECONDS, API_RATE_WINDOW_SECONDS } from '../../core/limits.ts';
import type { Db } from '../../db/client.ts';
import { API_ACCESS_MESSAGES } from '../../model/api-access.ts';
import { getPlanForTier } from '../../model/profile.ts';
import type { AppEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { countRequest } from './rate-limit.ts';

export interface ApiKeyEnv {
  Variables: AppEnv['Variables'] & {
    /**
     * The key's workspace; its maker as the actor (calls made with it are theirs in the audit log);
     * what it may do now: the lesser of its own role and its maker's current one.
     */
    ctx: WorkspaceContext;
  };
}

const UNAUTHENTICATED = 'Authentication required';
/** RFC 6750: a 401 names the scheme the client should use. */
const CHALLENGE = { headers: { 'WWW-Authenticate': 'Bearer realm="DangleWatch API"' } };

/**
 * Lets a request through with `Authorization: Bearer dw_…`, a live key of a workspace whose plan
 * has API access, made by someone still a member (the services check what its role may do), within
 * the plan's calls per hour (one counter per workspace, `api:<workspaceId>`,
 * shared by all its keys and all API processes). Every answer past the key check carries the
 * X-RateLimit-* headers.
 */
export function requireApiKey(db: Db, now: () => Date): MiddlewareHandler<ApiKeyEnv> {
  return async (c, next) => {
    const secret = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!secret) throw new ApiError(401, 'API_KEY_REQUIRED', UNAUTHENTICATED, CHALLENGE);
    const found = await findApiKey(db, secret);
    if (!found) throw new ApiError(401, 'INVALID_API_KEY', UNAUTHENTICATED, CHALLENGE);
    // A maker who is no member any more took the key with them (removal revokes it; this holds for
    // keys of members removed before it did).
    if (found.key.revokedAt || !found.role || !found.key.createdBy) {
      throw new ApiError(401, 'API_KEY_REVOKED', UNAUTHENTICATED, CHALLENGE);
    }
    const plan = getPlanForTier(found.workspace.tier);
    if (plan.limits.apiCallsPerHour === 0) {
      throw new ApiError(403, 'PLAN_REQUIRED', API_ACCESS_MESSAGES.planRequired(plan.name));
    }
    const at = now();
    const lastUsed = found.key.lastUsedAt?.getTime() ?? 0;
    if (at.getTime() - lastUsed >= API_KEY_LAST_USED_RESOLUTION_SECONDS * 1000) {
      await markApiKeyUsed(db, found.key.id, at);
    }
    await countRequest(c, db, `api:${found.workspace.id}`, {
      limit: plan.limits.apiCallsPerHour,
      windowSeconds: API_RATE_WINDOW_SECONDS,
    });
    c.set('ctx', {
      workspace: found.workspace,
      actor: {
        userId: found.key.createdBy,
        email: null,
        emailVerified: false,
        displayName: null,
        ip: c.get('clientAddress'),
        via: 'api-key',
      },
      role: found.role,
    });
    await next();
  };
}
