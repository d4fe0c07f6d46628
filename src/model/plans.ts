/**
 * The one plan catalogue. Pricing, legal pages, settings and the server's quota checks all read
 * from here. Where the pricing and legal pages once disagreed, the legal page's limits are the
 * contractual ones and are used.
 */
export type PlanId = 'free' | 'intro' | 'intro-plus' | 'solo-starter' | 'solo' | 'pro-solo';

export interface Plan {
  id: PlanId;
  name: string;
  /** US cents per month. */
  priceCents: number;
  /** Sold today, or announced on the roadmap for the given quarter. */
  availability: { kind: 'available' } | { kind: 'roadmap'; quarter: string };
  badge?: string;
  summary: string;
  features: string[];
  limits: {
    domains: number;
    /** Scans of one domain per day; null is unlimited (fair use). */
    scansPerDomainPerDay: number | null;
    /** Calls per hour to the public API; 0 means no API access. */
    apiCallsPerHour: number;
    /** How long scan results are kept. */
    retentionDays: number;
    /** Names one scan checks at most (given, zone, CT, then wordlist guesses). */
    namesPerScan: number;
    /** People in one workspace, the owner and pending invitations included. */
    members: number;
    /**
     * Team workspaces an account on this plan may own; null: no number, each on a plan of its own.
     * A team workspace on Free shares its owner's Free allowance (domains, daily scans) rather than
     * adding one: src/core/workspaces/allowance.ts.
     */
    teamWorkspaces: number | null;
  };
  /** Monthly uptime target; null is best effort. */
  uptimeTarget: number | null;
  support: { channel: string; responseTime: string | null; hours: string | null };
}

export const PLANS: readonly Plan[] = [
  {
    id: 'free',
    name: 'Free',
    priceCents: 0,
    availability: { kind: 'available' },
    summary: 'For one domain you own. No credit card.',
    features: ['1 domain', '1 scan per day', 'Email alerts', '7 days data retention', 'Community support'],
    limits: {
      domains: 1,
      scansPerDomainPerDay: 1,
      apiCallsPerHour: 0,
      retentionDays: 7,
      namesPerScan: 10_000,
      members: 1,
      teamWorkspaces: 1,
    },
    uptimeTarget: null,
    support: { channel: 'Community forum', responseTime: null, hours: null },
  },
  {
    id: 'intro',
    name: 'Intro',
    priceCents: 499,
    availability: { kind: 'available' },
    badge: 'MVP Launch Tier',
    summary: 'For founders with a handful of products and side projects.',
    features: [
      '25 domains',
      'Daily automated scans',
      'Email report',
      'Subdomain takeover detection',
      'Basic DNS checks',
      '100 API calls per hour',
    ],
    limits: {
      domains: 25,
      scansPerDomainPerDay: 1,
      apiCallsPerHour: 100,
      retentionDays: 90,
      namesPerScan: 10_000,
      members: 3,
      teamWorkspaces: null,
    },
    uptimeTarget: 99.0,
    support: { channel: 'E-mail', responseTime: '48 hours', hours: '9am-5pm EST, Monday to Friday' },
  },
  {
    id: 'intro-plus',
    name: 'Intro Plus',
    priceCents: 1499,
    availability: { kind: 'roadmap', quarter: 'Q4 2025' },
    summary: 'Email security and certificate monitoring on top of Intro.',
    features: ['Email security (DMARC, SPF, DKIM)', 'SSL monitoring'],
    limits: {
      domains: 50,
      scansPerDomainPerDay: 1,
      apiCallsPerHour: 0,
      retentionDays: 90,
      namesPerScan: 10_000,
      members: 3,
      teamWorkspaces: null,
    },
    uptimeTarget: 99.0,
    support: { channel: 'E-mail', responseTime: '48 hours', hours: '9am-5pm EST, Monday to Friday' },
  },
  {
    id: 'solo-starter',
    name: 'Solo Starter',
    priceCents: 2999,
    availability: { kind: 'roadmap', quarter: 'Q1 2026' },
    summary: 'Secrets and dependencies, watched for you.',
    features: ['Secret scanning', 'Dependency alerts'],
    limits: {
      domains: 50,
      scansPerDomainPerDay: 1,
      apiCallsPerHour: 0,
      retentionDays: 90,
      namesPerScan: 10_000,
      members: 10,
      teamWorkspaces: null,
    },
    uptimeTarget: 99.0,
    support: { channel: 'E-mail', responseTime: '48 hours', hours: '9am-5pm EST, Monday to Friday' },
  },
  {
    id: 'solo',
    name: 'Solo',
    priceCents: 9900,
    availability: { kind: 'roadmap', quarter: 'Q2 2026' },
    badge: 'Complete Security',
    summary: 'Application testing for a product with real users.',
    features: ['SAST and DAST', 'Code and API testing', '24 scans per day', '100 API calls per hour'],
    limits: {
      domains: 100,
      scansPerDomainPerDay: 24,
      apiCallsPerHour: 100,
      retentionDays: 90,
      namesPerScan: 25_000,
      members: 10,
      teamWorkspaces: null,
    },
    uptimeTarget: 99.5,
    support: { channel: 'E-mail', responseTime: '24 hours', hours: '9am-5pm EST, Monday to Friday' },
  },
  {
    id: 'pro-solo',
    name: 'Pro Solo',
    priceCents: 29900,
    availability: { kind: 'roadmap', quarter: 'Q3 2026' },
    summary: 'For agencies and teams reporting to clients and auditors.',
    features: ['White-label reports', 'Compliance automation', 'Full API', 'Unlimited scans (fair use)'],
    limits: {
      domains: 500,
      scansPerDomainPerDay: null,
      apiCallsPerHour: 1000,
      retentionDays: 90,
      namesPerScan: 50_000,
      members: 50,
      teamWorkspaces: null,
    },
    uptimeTarget: 99.9,
    support: { channel: 'E-mail and chat', responseTime: '4 hours', hours: '8am-8pm EST' },
  },
];

/** Every plan's id, in the catalogue's order. */
export const PLAN_IDS = PLANS.map((plan) => plan.id) as [PlanId, ...PlanId[]];

/** The largest plan that exists: what a server that sells no plans gives every workspace by default. */
export const LARGEST_PLAN: Plan = PLANS.reduce((largest, plan) =>
  plan.priceCents > largest.priceCents ? plan : largest,
);

export function getPlan(id: PlanId): Plan {
  const plan = PLANS.find((p) => p.id === id);
  if (!plan) throw new Error(`Unknown plan ${id}`);
  return plan;
}

/**
 * What is sold today: the pricing page's plan cards, the Plan tab's grid and checkout. A roadmap
 * plan is announced, never sold, whatever prices a server is given.
 */
export function onSale(plan: Plan): boolean {
  return plan.availability.kind === 'available';
}

/** The pricing page's roadmap, in the catalogue's order, with the quarter each was announced for. */
export const ROADMAP: readonly { plan: Plan; quarter: string }[] = PLANS.flatMap((plan) =>
  plan.availability.kind === 'roadmap' ? [{ plan, quarter: plan.availability.quarter }] : [],
);

/** The plans on the legal page's limits table: the contractual figures. */
export const CONTRACT_PLAN_IDS: readonly PlanId[] = ['free', 'intro', 'solo', 'pro-solo'];

export function formatPrice(cents: number): string {
  return cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`;
}

/** The day the paid plans go on sale, as the pricing page announces it. */
export const LAUNCH_DATE = '2025-09-15';

/** The service-level performance targets, the same for every plan. */
export const PERFORMANCE_TARGETS: readonly { metric: string; target: string; maximum: string }[] = [
  { metric: 'Dashboard load', target: 'under 2 seconds', maximum: '5 seconds' },
  { metric: 'API response', target: 'under 500 ms', maximum: '2 seconds' },
  { metric: 'Scan initiation', target: 'under 30 seconds', maximum: '2 minutes' },
  { metric: 'Report generation', target: 'under 5 minutes', maximum: '15 minutes' },
];

/** How long each kind of data is kept. */
export const DATA_RETENTION: readonly { data: string; period: string }[] = [
  { data: 'Scan results', period: '90 days (configurable per plan)' },
  { data: 'Account data', period: 'The life of the account plus 30 days' },
  { data: 'Payment records', period: '7 years' },
  { data: 'Support tickets', period: '2 years' },
];

/** Contractual figures quoted across the legal pages. */
export const LEGAL_TERMS = {
  deletionAfterTerminationDays: 30,
  breachNoticeHours: 72,
  policyChangeNoticeDays: 30,
  minimumAge: 18,
  sessionHours: 24,
  auditsPerYear: 1,
  auditNoticeDays: 30,
  billingCycles: ['monthly', 'annual'],
} as const;

/** Table wording of a plan's limits; no scan cap means unlimited under fair use. */
export function describeScans(plan: Plan): string {
  const n = plan.limits.scansPerDomainPerDay;
  return n === null ? 'Unlimited (fair use)' : `${n} per day`;
}

export function describeApi(plan: Plan): string {
  return plan.limits.apiCallsPerHour === 0
    ? 'None'
    : `${plan.limits.apiCallsPerHour.toLocaleString('en-US')} calls/hour`;
}

/**
 * The pricing card's line on team workspaces: a plan that limits them shares its allowance with
 * them, so it says so; a plan without a number says nothing more than its members.
 */
export function describeTeamWorkspaces(plan: Plan): string | null {
  const n = plan.limits.teamWorkspaces;
  if (n === null) return null;
  return `${n} team workspace${n === 1 ? '' : 's'}, sharing this plan's ${plan.limits.domains} domain${plan.limits.domains === 1 ? '' : 's'} and scans with your own`;
}

export function describeUptime(plan: Plan): string {
  return plan.uptimeTarget === null ? 'Best effort' : `${plan.uptimeTarget.toFixed(1)}%`;
}
