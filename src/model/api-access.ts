import { PLANS } from './plans.ts';

/** Every API key starts with this, so a leaked one is easy to recognise (and to search for). */
export const API_KEY_PREFIX = 'dw_';

/** Longest name of an API key. */
export const API_KEY_NAME_MAX = 100;

/** The plans whose users may call the public API (apiCallsPerHour above 0), cheapest first. */
export const API_PLANS = PLANS.filter((plan) => plan.limits.apiCallsPerHour > 0);

/** 'Solo or Pro Solo', from the plan catalogue. */
const apiPlanNames = API_PLANS.map((plan) => plan.name).join(' or ');

export const API_ACCESS_MESSAGES = {
  /** Creating a key, or calling the API, on a plan without API access. */
  planRequired: (planName: string) =>
    `The public API needs the ${apiPlanNames} plan; your ${planName} plan has no API access.`,
  keyLimit: (limit: number) => `You can have at most ${limit} active API keys. Revoke one you no longer use.`,
} as const;
