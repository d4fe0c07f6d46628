import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Avatar } from '../../../src/islands/auth/Avatar.tsx';
import { AuthProvider, useAuth } from '../../../src/islands/auth/auth-context.tsx';
import HeaderAuth from '../../../src/islands/auth/HeaderAuth.tsx';
import { $auth } from '../../../src/lib/auth/state.ts';

function ShowUser() {
  const auth = useAuth();
  return h('p', null, auth.loading ? 'loading' : (auth.user?.displayName ?? 'nobody'));
}

describe('useAuth', () => {
  it("outside its provider throws 'useAuth must be used within an AuthProvider'", () => {
    expect(() => renderToString(h(ShowUser, null))).toThrow('useAuth must be used within an AuthProvider');
  });

  it('inside the provider reads the shared store', () => {
    expect(renderToString(h(AuthProvider, null, h(ShowUser, null)))).toBe('<p>loading</p>');
  });
});

describe('the dashboard before hydration', () => {
  it('shows a spinner while auth state loads', async () => {
    const { default: Dashboard } = await import('../../../src/islands/dashboard/Dashboard.tsx');
    expect(renderToString(h(Dashboard, {}))).toMatch(/role="status" aria-label="Loading"/);
  });
});

describe('the header before hydration', () => {
  it("renders the 'Sign In' link: what a visitor without a session keeps, with no JavaScript", () => {
    expect($auth.get().loading).toBe(true);
    const html = renderToString(h(HeaderAuth, { variant: 'desktop' }));
    expect(html).toMatch(/<a href="\/login"[^>]*>Sign In<\/a>/);
  });
});

describe('the avatar', () => {
  it('shows the photo when there is one, else the initials', () => {
    expect(
      renderToString(h(Avatar, { photoURL: 'https://example.com/a.png', displayName: 'Ann Lee' })),
    ).toMatch(/<img src="https:\/\/example.com\/a.png"/);
    expect(renderToString(h(Avatar, { displayName: 'Ann Lee' }))).toContain('>AL</span>');
    expect(renderToString(h(Avatar, { displayName: null, email: null }))).toContain('>U</span>');
  });
});
