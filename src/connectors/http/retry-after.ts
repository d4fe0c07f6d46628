/** Seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  if (header === null || header === undefined) return undefined;
  const seconds = Number(header);
  if (header.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * DigitalOcean's `ratelimit-reset` (its API specification's shared headers): the Unix time, in
 * seconds, at which its oldest counted request expires, in ms from now. A 429 of theirs carries
 * this and no Retry-After. Undefined when absent or not a Unix time.
 */
export function rateLimitResetMs(header: string | null | undefined, now = Date.now()): number | undefined {
  const at = Number(header);
  if (!header || !Number.isFinite(at) || at < 1e9) return undefined;
  return Math.max(0, at * 1000 - now);
}
