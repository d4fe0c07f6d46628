import { getPlan, PLANS, type PlanId } from './plans.ts';

/** Tiers a profile may carry; the menu's badge knows free, pro and pro-solo, the dashboard all plans. */
export type Tier = PlanId | 'pro';

/** Longest display name PATCH /api/auth/user/profile accepts. */
export const DISPLAY_NAME_MAX = 100;

export interface ScanQuota {
  /** Scans allowed per UTC day; null is unlimited (fair use). */
  daily: number | null;
  /** Scans started today (UTC). */
  used: number;
  remaining: number | null;
  maxDomains: number;
  /** When `used` starts again from 0: the next UTC midnight, ISO 8601. */
  resetsAt: string;
}

export interface UserProfile {
  uid: string;
  displayName: string | null;
  email: string | null;
  photoURL: string | null;
  provider: 'google' | 'github';
  tier: Tier;
  createdAt: string;
  lastLoginAt: string;
}

/** The answer of GET /auth/user and POST /auth/verify. */
export interface AuthUserResponse {
  user: UserProfile;
  domain: string | null;
  quota: ScanQuota;
}

/** The catalogue plan of a profile's tier; unknown tiers get the free plan's limits. */
export function getPlanForTier(tier: string) {
  // 'pro' is the prototype menu's name for the top tier.
  const id = (tier === 'pro' ? 'pro-solo' : tier) as PlanId;
  return PLANS.some((p) => p.id === id) ? getPlan(id) : getPlan('free');
}

/**
 * A day's scan allowance from the plan catalogue: the plan's scans per domain per day for each
 * domain it may monitor (Free: 1, Intro: 25); null when the plan's scans are unlimited.
 */
export function scanQuota(tier: string, used: number, now: Date): ScanQuota {
  const plan = getPlanForTier(tier);
  const perDomain = plan.limits.scansPerDomainPerDay;
  const daily = perDomain === null ? null : perDomain * plan.limits.domains;
  const reset = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return {
    daily,
    used,
    remaining: daily === null ? null : Math.max(0, daily - used),
    maxDomains: plan.limits.domains,
    resetsAt: reset.toISOString(),
  };
}

/** Badge colours of the avatar menu: free green, pro blue, pro-solo purple. */
export function tierBadge(tier: string): { label: string; className: string } {
  switch (tier) {
    case 'pro':
      return { label: 'Pro', className: 'bg-blue-100 text-blue-800' };
    case 'pro-solo':
      return { label: 'Pro Solo', className: 'bg-purple-100 text-purple-800' };
    case 'free':
      return { label: 'Free', className: 'bg-green-100 text-green-800' };
    default:
      return { label: getPlanForTier(tier).name, className: 'bg-slate-100 text-slate-800' };
  }
}
