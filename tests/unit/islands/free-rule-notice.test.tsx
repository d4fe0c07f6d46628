import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FreeRuleNoticeView } from '../../../src/islands/dashboard/shared/FreeRuleNotice.tsx';
import { FREE_DOMAIN_RULE, freeCoversNothing, WEBMAIL_ON_FREE_LEADS } from '../../../src/model/free-tier.ts';
import { LARGEST_PLAN } from '../../../src/model/plans.ts';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');

const render = (screen: keyof typeof WEBMAIL_ON_FREE_LEADS) =>
  renderToStaticMarkup(<FreeRuleNoticeView screen={screen} email="pat@gmail.com" onSignInAgain={() => {}} />);

describe('the Free rule where a webmail account on Free arrives first', () => {
  it.each(Object.keys(WEBMAIL_ON_FREE_LEADS) as (keyof typeof WEBMAIL_ON_FREE_LEADS)[])(
    'the %s screen says what it would do, then the one Free rule and the two ways on',
    (screen) => {
      const shown = text(render(screen));
      expect(shown.indexOf(WEBMAIL_ON_FREE_LEADS[screen])).toBeGreaterThan(-1);
      expect(shown.indexOf(`The Free plan covers ${FREE_DOMAIN_RULE}`)).toBeGreaterThan(
        shown.indexOf(WEBMAIL_ON_FREE_LEADS[screen]),
      );
      expect(shown).toContain('pat@gmail.com');
      expect(shown).toContain('Upgrade to Intro');
      expect(shown).toContain('Sign in with your work e-mail');
    },
  );

  it('applies only where Free leaves a webmail account no domain (never on a server without billing)', () => {
    expect(freeCoversNothing('free', 'pat@gmail.com')).toBe(true);
    expect(freeCoversNothing('free', 'pat@acme.com')).toBe(false);
    // Without billing every workspace reads as DEFAULT_PLAN's plan, the largest by default.
    expect(freeCoversNothing(LARGEST_PLAN.id, 'pat@gmail.com')).toBe(false);
  });

  it('tells the Cloud and Integrations tabs what a connected account would be used for', () => {
    expect(WEBMAIL_ON_FREE_LEADS.cloud).toMatch(/^A cloud account is used to prove the findings/);
    expect(WEBMAIL_ON_FREE_LEADS.integrations).toMatch(/^An integration opens an issue/);
  });
});
