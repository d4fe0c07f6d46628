/**
 * Sessions end 24 hours after sign-in (spec 1 §4): the server enforces it from the token's
 * auth_time, the browser signs out and forgets its cached session. Kept apart from the token
 * refresher so that public pages can read it without loading the refresher.
 */
export const SESSION_MAX_AGE_MS = 24 * 60 * 60_000;
