import { describe, expect, it } from 'vitest';
import {
  CONTRACT_PLAN_IDS,
  DATA_RETENTION,
  describeApi,
  describeScans,
  describeTeamWorkspaces,
  describeUptime,
  formatPrice,
  getPlan,
  LEGAL_TERMS,
  PERFORMANCE_TARGETS,
  PLANS,
} from '../../../src/model/plans.ts';

/** The public pages render these figures: held here as they must read. */
describe('plan catalogue as the public pages show it', () => {
  it('has the pricing page plans and prices', () => {
    expect(PLANS.map((p) => [p.name, formatPrice(p.priceCents)])).toEqual([
      ['Free', '$0'],
      ['Intro', '$4.99'],
      ['Intro Plus', '$14.99'],
      ['Solo Starter', '$29.99'],
      ['Solo', '$99'],
      ['Pro Solo', '$299'],
    ]);
    expect(getPlan('intro').badge).toBe('MVP Launch Tier');
  });

  it('has the roadmap quarters', () => {
    const roadmap = PLANS.flatMap((p) =>
      p.availability.kind === 'roadmap' ? [[p.name, p.availability.quarter]] : [],
    );
    expect(roadmap).toEqual([
      ['Intro Plus', 'Q4 2025'],
      ['Solo Starter', 'Q1 2026'],
      ['Solo', 'Q2 2026'],
      ['Pro Solo', 'Q3 2026'],
    ]);
  });

  it('describes the contract plans as the legal limits table reads', () => {
    expect(
      CONTRACT_PLAN_IDS.map(getPlan).map((p) => [
        p.name,
        p.limits.domains,
        describeScans(p),
        describeApi(p),
        p.limits.members,
        describeUptime(p),
      ]),
    ).toEqual([
      ['Free', 1, '1 per day', 'None', 1, 'Best effort'],
      ['Intro', 25, '1 per day', '100 calls/hour', 3, '99.0%'],
      ['Solo', 100, '24 per day', '100 calls/hour', 10, '99.5%'],
      ['Pro Solo', 500, 'Unlimited (fair use)', '1,000 calls/hour', 50, '99.9%'],
    ]);
  });

  it('has the support, performance, retention and legal figures', () => {
    expect(CONTRACT_PLAN_IDS.map((id) => getPlan(id).support.responseTime)).toEqual([
      null,
      '48 hours',
      '24 hours',
      '4 hours',
    ]);
    expect(PERFORMANCE_TARGETS.map((t) => [t.target, t.maximum])).toEqual([
      ['under 2 seconds', '5 seconds'],
      ['under 500 ms', '2 seconds'],
      ['under 30 seconds', '2 minutes'],
      ['under 5 minutes', '15 minutes'],
    ]);
    expect(DATA_RETENTION.map((r) => r.period)).toEqual([
      '90 days (configurable per plan)',
      'The life of the account plus 30 days',
      '7 years',
      '2 years',
    ]);
    expect(LEGAL_TERMS).toMatchObject({
      breachNoticeHours: 72,
      minimumAge: 18,
      sessionHours: 24,
      auditsPerYear: 1,
      auditNoticeDays: 30,
      deletionAfterTerminationDays: 30,
      policyChangeNoticeDays: 30,
    });
  });

  it('says on the Free card that its one team workspace shares the plan, and nothing on the paid ones', () => {
    expect(describeTeamWorkspaces(getPlan('free'))).toBe(
      "1 team workspace, sharing this plan's 1 domain and scans with your own",
    );
    for (const plan of PLANS.filter((p) => p.id !== 'free')) expect(describeTeamWorkspaces(plan)).toBeNull();
  });
});
