/** The sign-in messages, word for word (docs/fixed-contract.md). */
const SIGN_IN_MESSAGES: Record<string, string> = {
  'popup-closed-by-user': 'Sign-in was cancelled. Please try again.',
  'cancelled-popup-request': 'Sign-in was cancelled. Please try again.',
  'popup-blocked': 'Popup was blocked. Please allow popups and try again.',
  'account-exists-with-different-credential':
    'An account already exists with the same email but different sign-in credentials.',
  'network-request-failed': 'Network error. Please check your connection and try again.',
};

/**
 * The popup sign-in loads Google's script (apis.google.com/js/api.js) for every provider; when a
 * content or ad blocker stops it, Firebase answers 'auth/internal-error' with the script's error
 * event, which says nothing to a person.
 */
export const BLOCKED_SCRIPT_MESSAGE =
  "Sign-in could not load Google's sign-in script (apis.google.com), which a content or ad blocker may be stopping. Disable the blocker for this site, or allow apis.google.com, and try again.";

/** Firebase codes arrive as 'auth/popup-blocked'; the tables are keyed without the prefix. */
function bareCode(code: unknown): string | undefined {
  return typeof code === 'string' ? code.replace(/^auth\//, '') : undefined;
}

/** The load error event of a <script> that Firebase hands on as the error's `customData`. */
function scriptFailed(customData: unknown): boolean {
  return (
    typeof customData === 'object' &&
    customData !== null &&
    (customData as { type?: unknown }).type === 'error'
  );
}

/** The message a failed popup sign-in shows. */
export function signInErrorMessage(error: unknown): string {
  if (!(error instanceof Error) && (typeof error !== 'object' || error === null))
    return 'Authentication failed';
  const { code, message } = error as { code?: unknown; message?: unknown };
  const bare = bareCode(code);
  if (bare && SIGN_IN_MESSAGES[bare]) return SIGN_IN_MESSAGES[bare];
  if (bare === 'internal-error' && scriptFailed((error as { customData?: unknown }).customData))
    return BLOCKED_SCRIPT_MESSAGE;
  return typeof message === 'string' && message ? message : 'Authentication failed';
}

export type Provider = 'google' | 'github';

/** What the login page shows when a sign-in failed without a message. */
export function defaultSignInFailure(provider: Provider): string {
  return provider === 'google' ? 'Failed to sign in with Google' : 'Failed to sign in with GitHub';
}

const AUTH_MESSAGES: Record<string, string> = {
  'user-not-found': 'No account found with this email address.',
  'wrong-password': 'Incorrect password. Please try again.',
  'email-already-in-use': 'An account already exists with this email address.',
  'weak-password': 'Password must be at least 6 characters long.',
  'invalid-email': 'Please enter a valid email address.',
  'user-disabled': 'This account has been disabled. Contact support.',
  'too-many-requests': 'Too many failed attempts. Please try again later.',
  'network-request-failed': 'Network error. Please check your connection.',
};

/** Which message a Firebase error code shows (docs/fixed-contract.md). */
export function authErrorMessage(code: string | undefined): string {
  const bare = bareCode(code);
  return (bare && AUTH_MESSAGES[bare]) || 'Authentication failed. Please try again.';
}

/** Shown on /login after the 24-hour session limit signed the user out. */
export const SESSION_EXPIRED_MESSAGE = 'Your session expired after 24 hours. Please sign in again.';

/** Shown on /login when the server stopped accepting the user's tokens. */
export const INVALID_SESSION_MESSAGE = 'Your session is no longer valid. Please sign in again.';
