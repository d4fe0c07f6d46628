import { describe, expect, it } from 'vitest';
import {
  checkoutPlanId,
  hasPaidSubscription,
  planForCheckout,
  planLine,
  type SubscriptionStatus,
  subscriptionSettled,
} from '../../../src/model/billing.ts';
import { PLANS } from '../../../src/model/plans.ts';

describe('checkoutPlanId (lower-cased name, first space a dash)', () => {
  it.each(PLANS.map((plan) => [plan.name, plan.id]))('names %s as %s, and back', (name, id) => {
    expect(checkoutPlanId(name)).toBe(id);
    expect(planForCheckout(id)?.name).toBe(name);
  });
  it('replaces only the first space', () => {
    expect(checkoutPlanId('Pro Solo Max')).toBe('pro-solo max');
  });
  it('knows no other plan', () => {
    expect(planForCheckout('enterprise')).toBeUndefined();
  });
});

describe('whether a subscription still bills, and whether deletion may go ahead', () => {
  const cases: [number, SubscriptionStatus, boolean, boolean, boolean][] = [
    // price, status, cancelAtPeriodEnd → paid, settled
    [0, 'none', false, false, true],
    [4.99, 'active', false, true, false],
    [4.99, 'active', true, true, true],
    [4.99, 'trialing', false, true, false],
    [4.99, 'past_due', false, true, false],
    [4.99, 'canceled', false, false, true],
    // A plan the operator granted: nothing is billed.
    [99, 'none', false, false, true],
  ];
  it.each(cases)(
    'price %s, %s, cancel at period end %s → paid %s, settled %s',
    (price, status, atEnd, paid, settled) => {
      const info = { plan: { price }, subscriptionStatus: status, cancelAtPeriodEnd: atEnd };
      expect(hasPaidSubscription(info)).toBe(paid);
      expect(subscriptionSettled(info)).toBe(settled);
    },
  );
});

describe('planLine: the current plan in one line', () => {
  const info = (price: number, status: SubscriptionStatus, configured = true) => ({
    plan: { id: 'intro' as const, name: price === 0 ? 'Free' : 'Intro', price, interval: 'month' as const },
    subscriptionStatus: status,
    billing: { configured, purchasable: [], serverPlan: null },
  });
  it.each([
    [0, 'none', true, 'Free', null],
    [4.99, 'none', true, 'Intro · no subscription, nothing is charged', null],
    [4.99, 'active', true, 'Intro · $4.99/month', 'active'],
    [4.99, 'past_due', true, 'Intro · $4.99/month', 'past_due'],
    [299, 'trialing', true, 'Intro · $299/month', 'trialing'],
    [4.99, 'none', false, 'Intro', null],
  ] as const)('price %s, %s, billing %s: %s', (price, status, configured, text, badge) => {
    expect(planLine(info(price, status, configured))).toEqual({ text, badge });
  });
});
