type OAuthMessage =
  | { type: 'OAUTH_ERROR'; error: string }
  | {
      type: 'OAUTH_SUCCESS';
      code: string;
      state: string | null;
      userInfo: { provider: 'google' | 'github' };
    };

/** What /auth/callback tells the window that opened it. */
export function oauthCallbackMessage(search: string): OAuthMessage {
  try {
    const params = new URLSearchParams(search);
    const error = params.get('error');
    if (error) return { type: 'OAUTH_ERROR', error: params.get('error_description') || error };
    const code = params.get('code');
    if (!code) return { type: 'OAUTH_ERROR', error: 'No authorization code received' };
    const state = params.get('state');
    return {
      type: 'OAUTH_SUCCESS',
      code,
      state,
      userInfo: { provider: state && /github/i.test(state) ? 'github' : 'google' },
    };
  } catch {
    return { type: 'OAUTH_ERROR', error: 'Authentication callback failed' };
  }
}

/** Messages the opener (same origin only), then closes the popup. */
export function runOAuthCallback(win: Window): void {
  let message: OAuthMessage;
  try {
    message = oauthCallbackMessage(win.location.search);
  } catch {
    message = { type: 'OAUTH_ERROR', error: 'Authentication callback failed' };
  }
  try {
    win.opener?.postMessage(message, win.location.origin);
  } catch {
    win.opener?.postMessage(
      { type: 'OAUTH_ERROR', error: 'Authentication callback failed' },
      win.location.origin,
    );
  }
  win.close();
}
