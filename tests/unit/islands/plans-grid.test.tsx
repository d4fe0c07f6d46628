import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PlanUsageCard } from '../../../src/islands/dashboard/domains/PlanUsageCard.tsx';
import { BillingHistory } from '../../../src/islands/dashboard/settings/BillingHistory.tsx';
import { CurrentPlanCard } from '../../../src/islands/dashboard/settings/CurrentPlanCard.tsx';
import { NoSalesNotice } from '../../../src/islands/dashboard/settings/NoSalesNotice.tsx';
import { PlansGrid } from '../../../src/islands/dashboard/settings/PlansGrid.tsx';
import type { BillingInfo } from '../../../src/model/billing.ts';
import { PLANS } from '../../../src/model/plans.ts';

const DISABLED = /\sdisabled=""/;
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

const free: BillingInfo = {
  plan: { id: 'free', name: 'Free', price: 0, interval: 'month' },
  subscriptionStatus: 'none',
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  usage: { domainsMonitored: 1, scansUsed: 0, scansThisMonth: 3, sharedWith: [] },
  invoices: [],
  billing: { configured: true, purchasable: ['intro', 'solo'], serverPlan: null },
};

/** The markup of one plan's card. */
function card(html: string, id: string): string {
  const start = html.indexOf(`data-plan="${id}"`);
  const end = html.indexOf('data-plan=', start + 1);
  return html.slice(start, end === -1 ? undefined : end);
}

describe('PlansGrid', () => {
  const onSale = PLANS.filter((plan) => plan.availability.kind === 'available');
  const roadmap = PLANS.filter((plan) => plan.availability.kind === 'roadmap');

  it('offers what the pricing page sells, with checkout for each plan this server sells', () => {
    const html = renderToStaticMarkup(<PlansGrid info={free} canBuy />);
    expect([...html.matchAll(/data-plan="([^"]+)"/g)].map((m) => m[1])).toEqual(onSale.map((p) => p.id));
    expect(text(card(html, 'free'))).toContain('Current Plan');
    expect(card(html, 'intro')).toMatch(/<button type="button" class="[^"]*"[^>]*>Upgrade to Intro</);
    expect(card(html, 'intro')).not.toMatch(DISABLED);
  });

  it('shows the roadmap as the pricing page does: announced, its quarter, nothing to buy', () => {
    const html = renderToStaticMarkup(<PlansGrid info={free} canBuy />);
    const section = html.slice(html.indexOf('data-testid="plans-roadmap"'));
    expect(text(section)).toContain('Roadmap: not available yet');
    for (const plan of roadmap) {
      expect(html).not.toContain(`data-plan="${plan.id}"`);
      expect(text(section)).toContain(`${plan.name} (`);
      expect(text(section)).toContain(`announced for ${(plan.availability as { quarter: string }).quarter}`);
      expect(html).not.toContain(`Upgrade to ${plan.name}<`);
    }
    expect(section).not.toContain('<button');
  });

  it('keeps a roadmap plan an operator granted as the current plan, out of the roadmap list', () => {
    const html = renderToStaticMarkup(
      <PlansGrid
        info={{ ...free, plan: { id: 'solo', name: 'Solo', price: 99, interval: 'month' } }}
        canBuy
      />,
    );
    expect(text(card(html, 'solo'))).toContain('Current Plan');
    expect(html).not.toContain('data-roadmap-plan="solo"');
  });

  it('says why when this server does not sell a plan on sale', () => {
    const html = renderToStaticMarkup(
      <PlansGrid
        info={{ ...free, billing: { configured: true, purchasable: [], serverPlan: null } }}
        canBuy
      />,
    );
    expect(card(html, 'intro')).toMatch(DISABLED);
    expect(text(card(html, 'intro'))).toContain('Intro is not sold on this server yet.');
  });

  it('sends a subscriber to the billing portal instead of a second checkout', () => {
    const html = renderToStaticMarkup(
      <PlansGrid
        info={{
          ...free,
          plan: { id: 'solo', name: 'Solo', price: 99, interval: 'month' },
          subscriptionStatus: 'active',
        }}
        canBuy
      />,
    );
    expect(text(card(html, 'solo'))).toContain('Current Plan');
    expect(text(card(html, 'intro'))).toContain('Change in Billing Portal');
    expect(html).not.toContain('>Upgrade to Intro<');
  });

  it('shows a member who may not buy what each plan gives, without a button to buy it', () => {
    const html = renderToStaticMarkup(<PlansGrid info={free} canBuy={false} />);
    expect(text(card(html, 'free'))).toContain('Current Plan');
    expect(text(card(html, 'intro'))).toContain('Members');
    expect(card(html, 'intro')).not.toContain('<button');
  });
});

describe('CurrentPlanCard', () => {
  const paid: BillingInfo = {
    ...free,
    plan: { id: 'solo', name: 'Solo', price: 99, interval: 'month' },
    subscriptionStatus: 'active',
    currentPeriodEnd: '2026-12-25T00:00:00Z',
  };
  it('gives an owner the portal and cancelling, and a member neither', () => {
    const owner = text(
      renderToStaticMarkup(<CurrentPlanCard info={paid} canManage subject="Acme" onChanged={() => {}} />),
    );
    expect(owner).toContain('Manage Billing');
    expect(owner).toContain('Cancel Subscription');
    const member = text(
      renderToStaticMarkup(
        <CurrentPlanCard info={paid} canManage={false} subject="Acme" onChanged={() => {}} />,
      ),
    );
    expect(member).toContain('Solo');
    expect(member).toContain('Renews on December 25, 2026');
    expect(member).not.toContain('Manage Billing');
    expect(member).not.toContain('Cancel Subscription');
  });
});

describe('BillingHistory', () => {
  it('shows amounts as cents / 100 with the status words, Void for anything else', () => {
    const html = renderToStaticMarkup(
      <BillingHistory
        info={{
          ...free,
          subscriptionStatus: 'active',
          invoices: [
            {
              id: 'in_1',
              amount: 29900,
              date: '2026-10-01T00:00:00Z',
              status: 'paid',
              downloadUrl: 'https://pay.example/1.pdf',
            },
            { id: 'in_2', amount: 499, date: '2026-09-01T00:00:00Z', status: 'void', downloadUrl: null },
          ],
        }}
      />,
    );
    const words = text(html);
    expect(words).toContain('$299.00');
    expect(words).toContain('$4.99');
    expect(words).toContain('Paid');
    expect(words).toContain('Void');
    expect(words).toContain('View All Invoices');
    expect(html.match(/Download/g)).toHaveLength(2);
  });

  it('says when Stripe could not be asked', () => {
    const html = renderToStaticMarkup(<BillingHistory info={{ ...free, invoicesUnavailable: true }} />);
    expect(text(html)).toContain('Invoices could not be loaded from Stripe just now.');
  });
});

describe('PlanUsageCard', () => {
  const quota = {
    tier: 'free',
    currentDomains: 1,
    maxDomains: 1,
    scansUsedToday: 1,
    maxScansPerDay: 1,
    scansUsedThisMonth: 4,
    maxScansPerMonth: 30,
    resetDate: '2026-12-01T00:00:00.000Z',
    sharedWith: [],
  };

  it('says which workspaces share a Free allowance, whose use it shows', () => {
    const shared = text(
      renderToStaticMarkup(
        <PlanUsageCard quota={{ ...quota, sharedWith: [{ id: 'u1', name: 'Personal' }] }} stats={null} />,
      ),
    );
    expect(shared).toContain(
      'Shared with Personal: the domains and scans of both workspaces count against one Free plan.',
    );
    expect(shared).toContain('1 / 1');
    expect(renderToStaticMarkup(<PlanUsageCard quota={quota} stats={null} />)).not.toContain('quota-shared');
  });
});

describe('CurrentPlanCard of a shared allowance', () => {
  it("says that the plan's usage is shared with other workspaces", () => {
    const shared = { ...free, usage: { ...free.usage, sharedWith: [{ id: 't1', name: 'Side project' }] } };
    const html = renderToStaticMarkup(
      <CurrentPlanCard info={shared} canManage subject="Ann" onChanged={() => {}} />,
    );
    expect(text(html)).toContain(
      'Shared with Side project: the domains and scans of both workspaces count against one Free plan.',
    );
    expect(
      renderToStaticMarkup(<CurrentPlanCard info={free} canManage subject="Ann" onChanged={() => {}} />),
    ).not.toContain('plan-shared');
  });
});

describe('a server that sells no plans', () => {
  const granted: BillingInfo = {
    ...free,
    plan: { id: 'pro-solo', name: 'Pro Solo', price: 299, interval: 'month' },
    billing: { configured: false, purchasable: [], serverPlan: 'pro-solo' },
  };

  it('says which plan every workspace has and who sets it, with no price, badge or button', () => {
    expect(text(renderToStaticMarkup(<NoSalesNotice info={granted} team={null} />))).toBe(
      ' This server sells no plans: every workspace has Pro Solo (set by whoever runs it). ',
    );
    const card = renderToStaticMarkup(
      <CurrentPlanCard info={granted} canManage subject="your account" onChanged={() => {}} />,
    );
    expect(text(card)).toContain('Pro Solo');
    expect(card).not.toContain('$299');
    expect(card).not.toContain('subscription-status');
    expect(card).not.toContain('<button');
  });

  it('with DEFAULT_PLAN=free, names the workspace whose plan the operator set', () => {
    const own = {
      ...granted,
      plan: { ...granted.plan, id: 'intro' as const, name: 'Intro' },
      billing: { ...granted.billing, serverPlan: null },
    };
    expect(text(renderToStaticMarkup(<NoSalesNotice info={own} team="Acme" />))).toContain(
      'This server sells no plans: Acme has Intro (set by whoever runs it).',
    );
    expect(text(renderToStaticMarkup(<NoSalesNotice info={own} team={null} />))).toContain(
      'your workspace has Intro',
    );
  });
});

describe('a team on a plan it holds without a subscription (point 8: one truthful line)', () => {
  const intro: BillingInfo = {
    ...free,
    plan: { id: 'intro', name: 'Intro', price: 4.99, interval: 'month' },
  };

  it('says the plan and that nothing is charged, with no price, no "Free" badge and nothing to cancel', () => {
    const card = renderToStaticMarkup(
      <CurrentPlanCard info={intro} canManage subject="Acme" onChanged={() => {}} />,
    );
    expect(text(card)).toContain('Intro · no subscription, nothing is charged');
    expect(card).not.toContain('$4.99');
    expect(card).not.toContain('subscription-status');
    expect(card).not.toContain('Cancel');
    const grid = renderToStaticMarkup(<PlansGrid info={intro} canBuy />);
    expect(grid).not.toContain('Cancel your subscription');
  });

  it('keeps the price, the status and the way back to Free where a subscription pays the plan', () => {
    const paying = { ...intro, subscriptionStatus: 'active' as const };
    const card = renderToStaticMarkup(
      <CurrentPlanCard info={paying} canManage subject="Acme" onChanged={() => {}} />,
    );
    expect(text(card)).toContain('Intro · $4.99/month');
    expect(text(card)).toContain('Active');
    expect(text(card)).toContain('Cancel Subscription');
    expect(text(renderToStaticMarkup(<PlansGrid info={paying} canBuy />))).toContain(
      'Cancel your subscription to return to Free.',
    );
  });

  it('shows Free as Free, without a badge repeating it', () => {
    const card = renderToStaticMarkup(
      <CurrentPlanCard info={free} canManage subject="Ann" onChanged={() => {}} />,
    );
    expect(card).not.toContain('subscription-status');
    expect(text(card)).toContain(' Free ');
  });
});
