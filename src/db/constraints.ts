/**
 * True when the error (or one it wraps: drizzle wraps the driver's) is a unique violation of the
 * named index or constraint. Both drivers (pg, PGlite) report PostgreSQL's code and name.
 */
export function violatesUnique(error: unknown, name: string): boolean {
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    if (typeof current !== 'object') return false;
    const { code, constraint, cause } = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (code === '23505' && constraint === name) return true;
    current = cause;
  }
  return false;
}
