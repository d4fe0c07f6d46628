import { afterEach, describe, expect, it, vi } from 'vitest';
import { signOut } from '../../../src/lib/auth/actions.ts';
import { $auth } from '../../../src/lib/auth/state.ts';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the auth store', () => {
  it('tells a new listener the current state at once', () => {
    const seen: boolean[] = [];
    const unsubscribe = $auth.subscribe((state) => seen.push(state.loading));
    expect(seen).toEqual([true]);
    unsubscribe();
  });

  it("a failed sign-out is only logged, as 'Sign out failed'", async () => {
    // Firebase cannot start here: the configuration request fails.
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('offline');
    });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(signOut()).resolves.toBeUndefined();
    expect(error).toHaveBeenCalledWith('Sign out failed', expect.anything());
    expect($auth.get()).toMatchObject({ user: null, loading: false });
  });
});
