/**
 * Why an outside call failed. `credentials`: the provider refused the credential or its rights;
 * `not-found`: what was asked for is not there (or not visible to this credential); `refused`: the
 * provider refused the request for another reason of its own; `unavailable`: it could not be
 * reached, did not answer in time, failed (5xx) or rate limited us past what we wait: worth trying
 * again later; `malformed`: an answer that is not what the provider documents; `too-large`: an
 * answer larger than the call reads; `address`: the host is not one the server may connect to.
 */
export type ConnectorFailure =
  | 'credentials'
  | 'not-found'
  | 'refused'
  | 'unavailable'
  | 'malformed'
  | 'too-large'
  | 'address';

/** The plain sentence a person reads for each failure, when the connector has none more exact. */
export const SENTENCES: Record<ConnectorFailure, (provider: string) => string> = {
  credentials: (p) => `${p} did not accept the credential`,
  'not-found': (p) => `${p} could not find what was asked for`,
  refused: (p) => `${p} refused the request`,
  unavailable: (p) => `${p} could not be reached; it will be tried again later`,
  malformed: (p) => `${p} sent an answer DangleWatch cannot read`,
  'too-large': (p) => `${p} sent an answer larger than DangleWatch reads`,
  address: (p) => `The ${p} address is not one DangleWatch connects to`,
};

/**
 * An outside call that failed. `message` is a plain sentence for a person; `detail` is the
 * provider's own words (an API's error message, a timeout's length), shown under it. Neither ever
 * holds a credential or the request.
 */
export class ConnectorError extends Error {
  override name = 'ConnectorError';
  /** The provider as people name it: 'Jira', 'AWS', 'Cloudflare'. */
  readonly provider: string;
  readonly failure: ConnectorFailure;
  readonly detail: string | undefined;
  /** The HTTP status of the answer that failed, when there was one. */
  readonly status: number | undefined;
  /** How long the provider asked us to wait (Retry-After) when that was longer than we wait. */
  readonly retryAfterMs: number | undefined;
  /** The provider's answer, parsed, when it gave one (a GraphQL refusal's errors, say). */
  readonly body: unknown;

  constructor(
    provider: string,
    failure: ConnectorFailure,
    fields: {
      message?: string;
      detail?: string;
      status?: number;
      retryAfterMs?: number;
      body?: unknown;
    } = {},
  ) {
    super(fields.message ?? SENTENCES[failure](provider));
    this.provider = provider;
    this.failure = failure;
    this.detail = fields.detail;
    this.status = fields.status;
    this.retryAfterMs = fields.retryAfterMs;
    this.body = fields.body;
  }

  /** Worth trying again later: the provider was down, slow or rate limiting, not refusing. */
  get retry(): boolean {
    return this.failure === 'unavailable';
  }

  /**
   * The same failure in a sentence the connector knows better (a provider's known refusal said in
   * plain words); the provider's words, status and answer stay as they were.
   */
  reworded(message: string): ConnectorError {
    return new ConnectorError(this.provider, this.failure, {
      message,
      detail: this.detail,
      status: this.status,
      retryAfterMs: this.retryAfterMs,
      body: this.body,
    });
  }

  /** The sentence with the provider's words after it, for a log line or a stored delivery error. */
  get full(): string {
    return this.detail ? `${this.message} (${this.detail})` : this.message;
  }
}
