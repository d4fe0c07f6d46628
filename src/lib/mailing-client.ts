import { EMAIL_PATTERN } from '../model/email-pattern.ts';
import { track } from './analytics.ts';
import { toast } from './toast.ts';

/** The success toast, word for word (docs/fixed-contract.md). */
export const SIGNUP_SUCCESS_TOAST = {
  title: 'Thanks for joining!',
  description: "We'll notify you when the product launches.",
} as const;

export const SIGNUP_ERROR_TOAST = {
  title: 'Sign-up failed',
  description: "We couldn't add you to the list. Please check your connection and try again in a minute.",
} as const;

export const SIGNUP_RATE_LIMITED_TOAST = {
  title: 'Too many attempts',
  description: 'Please wait a little while before trying again.',
} as const;

type SubscribeOutcome = 'subscribed' | 'duplicate';

interface SubscribeOptions {
  /** Origin of the API when it is not this site's origin; '' is same-origin. */
  apiBase?: string;
  fetch?: typeof fetch;
  now?: () => Date;
}

/** An HTTP failure of the sign-up, carrying the status the UI may want to explain. */
class SubscribeError extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`Failed to subscribe: ${status}`);
    this.name = 'SubscribeError';
    this.status = status;
  }
}

function defaultApiBase(): string {
  return (import.meta.env?.PUBLIC_API_BASE as string | undefined)?.replace(/\/+$/, '') ?? '';
}

/**
 * POSTs a sign-up to {host}/mailing-list. Returns false, silently, when the e-mail or source is
 * missing or the e-mail does not match the basic pattern; 'subscribed' on 2xx;
 * 'duplicate' on 409 (already on the list, which counts as success). Any other answer throws
 * 'Failed to subscribe: {status}'. Only the status of the answer is read.
 */
export async function subscribeToMailingList(
  email: string | null | undefined,
  source: string | null | undefined,
  options: SubscribeOptions = {},
): Promise<SubscribeOutcome | false> {
  const address = email?.trim() ?? '';
  if (!address || !source || !EMAIL_PATTERN.test(address)) return false;
  const doFetch = options.fetch ?? fetch;
  const response = await doFetch(`${options.apiBase ?? defaultApiBase()}/mailing-list`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      email: address,
      source,
      timestamp: (options.now?.() ?? new Date()).toISOString(),
    }),
  });
  if (response.ok) return 'subscribed';
  if (response.status === 409) return 'duplicate';
  throw new SubscribeError(response.status);
}

/**
 * The whole sign-up as the form runs it: subscribe, then report. A new sign-up gets the success
 * toast; a duplicate is a silent success; a failure is logged, tracked and shown to the user, since
 * a sign-up that silently did not happen would be worse than an error message.
 * Resolves true when the address is on the list (the form then clears its field).
 */
export async function submitMailingSignup(
  email: string,
  source: string,
  options: SubscribeOptions = {},
): Promise<boolean> {
  try {
    const outcome = await subscribeToMailingList(email, source, options);
    if (outcome === false) return false;
    track('email_signup_success', { source });
    if (outcome === 'subscribed') toast({ ...SIGNUP_SUCCESS_TOAST });
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error('Mailing list sign-up failed:', error);
    track('email_signup_error', { source, error: message });
    const copy =
      error instanceof SubscribeError && error.status === 429
        ? SIGNUP_RATE_LIMITED_TOAST
        : SIGNUP_ERROR_TOAST;
    toast({ ...copy, variant: 'destructive', duration: Number.POSITIVE_INFINITY });
    return false;
  }
}
