/**
 * The session's constants, in a module of their own with no imports: the header's inline script,
 * the `client:session` directive and the token refresher all read them without loading the rest.
 */

/**
 * Sessions end 24 hours after sign-in: the server enforces it from the token's
 * auth_time, the browser signs out and forgets its cached session.
 */
export const SESSION_MAX_AGE_MS = 24 * 60 * 60_000;

/** The localStorage key of the cached session (see session-cache.ts). */
export const SESSION_CACHE_KEY = 'danglewatch:session';
