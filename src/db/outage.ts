import type { Logger } from 'pino';

/**
 * SQLSTATE classes and codes that mean "the database is not there just now", as opposed to "this
 * query is wrong": connection exceptions (08), the server shutting down or restarting (57P01-57P03),
 * no connection slot (53300), and a database that refuses connections (55000, as
 * `ALLOW_CONNECTIONS false` answers during maintenance).
 */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300', '55000']);
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** node-postgres says these in words, with no code. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

/** True when the error (or one it wraps: drizzle and pg-boss wrap the driver's) says the database went away. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    if (typeof current !== 'object') return false;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_CODES.has(code))) return true;
    if (typeof code === 'string' && UNAVAILABLE_ERRNOS.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((words) => message.includes(words)))
      return true;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = cause;
  }
  return false;
}

/**
 * One log line when the database goes away and one when it is back, however many connections,
 * queries and pollers notice in between: an outage of a minute would otherwise write thousands.
 */
export class DatabaseOutage {
  private since: Date | undefined;
  private failures = 0;
  private readonly logger: Pick<Logger, 'warn' | 'info'>;

  constructor(logger: Pick<Logger, 'warn' | 'info'>) {
    this.logger = logger;
  }

  get down(): boolean {
    return this.since !== undefined;
  }

  failed(error: unknown, source: string): void {
    this.failures++;
    if (this.since) return;
    this.since = new Date();
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.warn({ source, reason }, 'database unreachable: answering 503 and retrying until it is back');
  }

  recovered(): void {
    if (!this.since) return;
    const seconds = Math.round((Date.now() - this.since.getTime()) / 100) / 10;
    this.logger.info({ seconds, failures: this.failures }, 'database is back');
    this.since = undefined;
    this.failures = 0;
  }
}

/** How long a worker keeps trying to store what it has done while the database is away. */
const OUTAGE_PATIENCE_MS = 10 * 60_000;

/**
 * Runs `work` again while it fails because the database is away (backing off from 250 ms to 5 s),
 * for at most `patienceMs`; any other error is thrown at once. `work` must be safe to repeat: a
 * transaction, or one statement.
 */
export async function whenDatabaseAnswers<T>(
  work: () => Promise<T>,
  options: { outage?: DatabaseOutage; patienceMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.patienceMs ?? OUTAGE_PATIENCE_MS);
  for (let delay = 250; ; delay = Math.min(delay * 2, 5_000)) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() + delay > deadline) throw error;
      options.outage?.failed(error, 'worker');
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
