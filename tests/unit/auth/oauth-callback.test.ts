import { describe, expect, it, vi } from 'vitest';
import { oauthCallbackMessage, runOAuthCallback } from '../../../src/lib/auth/oauth-callback.ts';

describe('/auth/callback', () => {
  it('builds each sign-in callback message', () => {
    expect(oauthCallbackMessage('?error=x&error_description=Denied')).toEqual({
      type: 'OAUTH_ERROR',
      error: 'Denied',
    });
    expect(oauthCallbackMessage('?error=x')).toEqual({ type: 'OAUTH_ERROR', error: 'x' });
    expect(oauthCallbackMessage('')).toEqual({
      type: 'OAUTH_ERROR',
      error: 'No authorization code received',
    });
    expect(oauthCallbackMessage('?code=c&state=github-1')).toMatchObject({
      userInfo: { provider: 'github' },
    });
    expect(oauthCallbackMessage('?code=c')).toMatchObject({
      type: 'OAUTH_SUCCESS',
      userInfo: { provider: 'google' },
    });
  });

  it("an exception becomes 'Authentication callback failed', and the popup closes", () => {
    const postMessage = vi.fn();
    const close = vi.fn();
    const win = {
      opener: { postMessage },
      close,
      location: {
        origin: 'http://localhost',
        get search(): string {
          throw new Error('boom');
        },
      },
    } as unknown as Window;
    runOAuthCallback(win);
    expect(postMessage).toHaveBeenCalledWith(
      { type: 'OAUTH_ERROR', error: 'Authentication callback failed' },
      'http://localhost',
    );
    expect(close).toHaveBeenCalled();
  });
});
