import { describe, expect, it } from 'vitest';
import { API_ACCESS_MESSAGES, API_PLANS } from '../../../src/model/api-access.ts';
import { describeApi, onSale, PLANS } from '../../../src/model/plans.ts';

describe('the plan table', () => {
  it.each(PLANS.map((plan) => [plan.name, plan] as const))(
    '%s says what API it has, in its features and on the legal tables',
    (_, plan) => {
      const calls = plan.limits.apiCallsPerHour;
      const apiFeatures = plan.features.filter((feature) => /\bAPI\b/.test(feature));
      if (calls === 0) {
        expect(apiFeatures).toEqual([]);
        expect(describeApi(plan)).toBe('None');
        expect(API_PLANS).not.toContain(plan);
      } else {
        // 'Full API' says no number; any number said must be the one the server counts.
        for (const feature of apiFeatures) {
          const said = feature.match(/^([\d,]+) API calls per hour$/)?.[1];
          if (said) expect(Number(said.replace(/,/g, ''))).toBe(calls);
        }
        expect(apiFeatures.length).toBeGreaterThan(0);
        expect(describeApi(plan)).toBe(`${calls.toLocaleString('en-US')} calls/hour`);
        expect(API_PLANS).toContain(plan);
      }
    },
  );

  it('sells the API: Intro, on sale, has 100 calls an hour and Pro Solo keeps 1,000', () => {
    const byId = Object.fromEntries(PLANS.map((plan) => [plan.id, plan]));
    expect(byId.intro?.limits.apiCallsPerHour).toBe(100);
    expect(byId['pro-solo']?.limits.apiCallsPerHour).toBe(1000);
    expect(API_PLANS.some(onSale)).toBe(true);
  });

  it('names the cheapest plan one can buy with the API when refusing a key', () => {
    const cheapest = PLANS.filter(onSale)
      .filter((plan) => plan.limits.apiCallsPerHour > 0)
      .sort((a, b) => a.priceCents - b.priceCents)[0];
    expect(API_ACCESS_MESSAGES.planRequired('Free')).toBe(
      `The public API comes with the ${cheapest?.name} plan and above; your Free plan has no API access.`,
    );
  });
});
