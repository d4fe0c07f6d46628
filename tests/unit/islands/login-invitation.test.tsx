import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { InvitationHeading } from '../../../src/islands/auth/LoginPage.tsx';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe("the sign-in page an invitation's link leads to", () => {
  it('says who invited them to which workspace before they sign in', () => {
    const shown = text(
      renderToStaticMarkup(
        <InvitationHeading invitation={{ inviter: 'Ann Owner', workspace: 'Acme Security' }} />,
      ),
    );
    expect(shown).toBe(
      'Join Acme Security Ann Owner invited you to join Acme Security on DangleWatch. Sign in with the address the invitation was sent to, and you join it at once.',
    );
  });

  it('names no one when the inviter left no name', () => {
    expect(
      text(renderToStaticMarkup(<InvitationHeading invitation={{ inviter: null, workspace: 'Acme' }} />)),
    ).toContain('A member of it invited you to join Acme on DangleWatch.');
  });

  it('reads as any sign-in without an invitation', () => {
    expect(text(renderToStaticMarkup(<InvitationHeading invitation={null} />))).toBe(
      'Welcome to DangleWatch Sign in to monitor your domains for dangling DNS records.',
    );
  });
});
