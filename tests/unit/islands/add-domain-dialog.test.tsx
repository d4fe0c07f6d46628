import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AuthProvider } from '../../../src/islands/auth/auth-context.tsx';
import { AddDomainModal } from '../../../src/islands/dashboard/domains/AddDomainModal.tsx';
import { FREE_DOMAIN_RULE } from '../../../src/model/free-tier.ts';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');

const quota = {
  tier: 'free',
  currentDomains: 0,
  maxDomains: 1,
  scansUsedToday: 0,
  maxScansPerDay: 1,
  scansUsedThisMonth: 0,
  maxScansPerMonth: 30,
  resetDate: '2026-12-01T00:00:00.000Z',
  sharedWith: [],
};

/** The dialog as it first opens, before anything is typed. */
function opened(tier: string, email: string) {
  return renderToStaticMarkup(
    <AuthProvider>
      <AddDomainModal
        quota={{ ...quota, tier }}
        tier={tier}
        email={email}
        monitored={[]}
        serviceDown={false}
        onClose={() => {}}
      />
    </AuthProvider>,
  );
}

describe('the add-domain dialog as it opens', () => {
  // Without a workspace list the dialog acts for the personal workspace, which its caller owns.
  it('tells a webmail account on Free why, and the next steps, before anything is typed', () => {
    const html = opened('free', 'wendy@gmail.com');
    const words = text(html);
    expect(words).toContain(`The Free plan covers ${FREE_DOMAIN_RULE}.`);
    expect(words).toContain('You signed in with wendy@gmail.com , a webmail address');
    expect(words).toContain('Intro, $4.99/month: 25 domains, any domain you prove you own.');
    expect(html).toMatch(/<a href="\/dashboard\?section=settings&amp;tab=plan"[^>]*>Upgrade to Intro<\/a>/);
    expect(words).toContain('Sign in with your work e-mail');
    // Nothing to type that could only be refused, and no DNS connection whose Monitor Free refuses.
    expect(html).not.toContain('<input');
    expect(words).not.toContain('Configure Scanning');
    expect(words).not.toContain('Connect your DNS provider instead');
  });

  it('gives a work address on Free the domain field, its rule and the DNS connection', () => {
    const words = text(opened('free', 'wendy@acme-widgets.com'));
    expect(words).toContain('acme-widgets.com');
    expect(words).toContain('Configure Scanning');
    expect(words).toContain('Connect your DNS provider instead');
    expect(words).not.toContain('a webmail address');
  });

  it('gives a webmail account on a paid plan the domain field: only Free has the rule', () => {
    const html = opened('intro', 'wendy@gmail.com');
    expect(html).toContain('<input');
    expect(text(html)).toContain('Connect your DNS provider instead');
    expect(html).not.toContain('webmail-notice');
  });
});
