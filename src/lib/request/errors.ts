/** The request layer's error object and catalogue. */
type ErrorType =
  | 'NETWORK'
  | 'AUTHENTICATION'
  | 'AUTHORIZATION'
  | 'VALIDATION'
  | 'API_RATE_LIMIT'
  | 'API_ERROR'
  | 'WEBSOCKET'
  | 'UNKNOWN';

export const ERROR_TITLES: Record<ErrorType, string> = {
  NETWORK: 'Connection Error',
  AUTHENTICATION: 'Authentication Failed',
  AUTHORIZATION: 'Access Denied',
  VALIDATION: 'Validation Error',
  API_RATE_LIMIT: 'Rate Limited',
  API_ERROR: 'Service Error',
  WEBSOCKET: 'Real-time Connection Error',
  UNKNOWN: 'Unexpected Error',
};

export class RequestError extends Error {
  readonly type: ErrorType;
  readonly code: string | undefined;
  readonly statusCode: number | undefined;
  readonly retryable: boolean;
  readonly context: Record<string, unknown>;

  constructor(
    message: string,
    init: {
      type: ErrorType;
      code?: string;
      statusCode?: number;
      retryable?: boolean;
      context?: Record<string, unknown>;
    },
  ) {
    super(message);
    this.name = 'RequestError';
    this.type = init.type;
    this.code = init.code;
    this.statusCode = init.statusCode;
    this.retryable = init.retryable ?? false;
    this.context = init.context ?? {};
  }

  get title(): string {
    return ERROR_TITLES[this.type];
  }
}

/** The error a non-OK answer becomes. `body` is the parsed answer (our API's {error, code} shape). */
export function errorFromResponse(
  status: number,
  statusText: string,
  body: unknown,
  headers: Headers,
  context: Record<string, unknown> = {},
): RequestError {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const code = typeof fields.code === 'string' ? fields.code : undefined;
  if (status === 401) {
    return new RequestError('Authentication required', {
      type: 'AUTHENTICATION',
      code,
      statusCode: 401,
      context,
    });
  }
  if (status === 403) {
    // The server's reason (the role a workspace action needs) stays in the context for screens that show it.
    const reason = typeof fields.error === 'string' ? fields.error : undefined;
    return new RequestError('Access denied', {
      type: 'AUTHORIZATION',
      code,
      statusCode: 403,
      context: reason ? { ...context, serverMessage: reason } : context,
    });
  }
  if (status === 429) {
    const reset = Number(headers.get('x-ratelimit-reset'));
    const resetAt = Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000).toISOString() : undefined;
    console.warn(`Rate limit exceeded${resetAt ? `; resets at ${resetAt}` : ''}`);
    return new RequestError('Rate limit exceeded', {
      type: 'API_RATE_LIMIT',
      code,
      statusCode: 429,
      context: { ...context, resetAt },
    });
  }
  const serverMessage =
    typeof fields.error === 'string'
      ? fields.error
      : typeof fields.message === 'string'
        ? fields.message
        : '';
  // An outside provider's own words come as the detail of path 'provider' (core/connections/credentials.ts).
  const provider = Array.isArray(fields.details)
    ? (fields.details as { path?: unknown; message?: unknown }[]).find((d) => d.path === 'provider')?.message
    : undefined;
  return new RequestError(serverMessage || `HTTP ${status}: ${statusText}`, {
    type: 'API_ERROR',
    code,
    statusCode: status,
    retryable: status >= 500,
    context: typeof provider === 'string' ? { ...context, providerWords: provider } : context,
  });
}

export function toRequestError(error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  return new RequestError(error instanceof Error ? error.message : 'Unexpected error', { type: 'UNKNOWN' });
}

/** What the server said about a refusal: its own words for a 403, else the error's message. */
export function serverMessage(error: unknown): string {
  const failure = toRequestError(error);
  const reason = failure.context.serverMessage;
  return typeof reason === 'string' ? reason : failure.message;
}

/** An outside provider's own words about a refusal the server passed on; null when it gave none. */
export function providerWords(error: unknown): string | null {
  const words = error instanceof RequestError ? error.context.providerWords : undefined;
  return typeof words === 'string' ? words : null;
}
