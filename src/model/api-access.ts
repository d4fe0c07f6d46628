import { onSale, PLANS } from './plans.ts';
import { ROLE_LABELS, ROLE_NEEDED, type WorkspaceAction, type WorkspaceRole } from './workspaces.ts';

/** Every API key starts with this, so a leaked one is easy to recognise (and to search for). */
export const API_KEY_PREFIX = 'dw_';

/**
 * The most a key may do: read and start scans, all the public API offers. A key acts with the
 * lesser of this and its maker's current role in the workspace, so a maker who is demoted takes
 * their keys down with them.
 */
export const API_KEY_ROLE: WorkspaceRole = 'member';

/** Longest name of an API key. */
export const API_KEY_NAME_MAX = 100;

/** The plans whose users may call the public API (apiCallsPerHour above 0), cheapest first. */
export const API_PLANS = PLANS.filter((plan) => plan.limits.apiCallsPerHour > 0);

/** The cheapest plan one can buy that has the API ('Intro'), or the cheapest announced one. */
export const FIRST_API_PLAN = API_PLANS.find(onSale) ?? API_PLANS[0];

export const API_ACCESS_MESSAGES = {
  /** Creating a key, or calling the API, on a plan without API access. */
  planRequired: (planName: string) =>
    `The public API comes with the ${FIRST_API_PLAN?.name} plan and above; your ${planName} plan has no API access.`,
  keyLimit: (limit: number) => `You can have at most ${limit} active API keys. Revoke one you no longer use.`,
  /** A key whose role (its own, or its maker's current one if less) may not make the call. */
  keyRoleNeeded: (role: WorkspaceRole, action: WorkspaceAction) =>
    `This API key acts with its maker's current role in the workspace, ${ROLE_LABELS[role]}; this call needs the ${ROLE_LABELS[ROLE_NEEDED[action]]} role or higher`,
} as const;
