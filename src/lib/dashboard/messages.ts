import { DOMAIN_MESSAGES } from '../../model/domain-input.ts';
import { isRefusalCode, REFUSALS } from '../../model/messages.ts';
import { RequestError, serverMessage } from '../request/errors.ts';

/** The dashboard's texts, word for word (docs/fixed-contract.md). */
export const DASHBOARD_MESSAGES = {
  addFailedTitle: 'Failed to Add Domain',
  addNetwork: 'Network error. Please check your internet connection and try again.',
  addAuth: 'Authentication error. Please refresh the page and try again.',
  addQuota: 'You have reached your domain or quota limit. Consider upgrading your plan.',
  addTimeout: 'Request timeout. The service may be experiencing high load. Please try again.',
  addDefault: 'Failed to add domain',
  serviceUnavailable: 'Domain scanning service is currently unavailable. Please try again later.',
  offline: 'You are currently offline. Please check your internet connection.',
  verifyServiceDown:
    'DNS verification service is temporarily unavailable. Please try again in a few minutes.',
  verifyFailed: 'DNS verification failed - please check your DNS configuration',
  verifyUnexpected:
    'Verification failed due to a service error. Please try again later or contact support if the issue persists.',
  scanStartFailed: 'Scan failed to start. The DSS service may be temporarily unavailable.',
  scanFailedTitle: 'Scan Failed',
  scanFailedDefault: 'Failed to start scan',
  loadFailed: 'Failed to load dashboard data',
  domainAdded: 'Domain Added Successfully',
  copied: 'Copied',
  copiedRecord: 'DNS record copied to clipboard',
  scanStarted: 'Scan Started',
  scanStartedFor: (domain: string) => `New security scan started for ${domain}`,
  reportDownloaded: 'Report Downloaded',
  degradedToast: 'Scanning may take longer than usual while the service is degraded.',
} as const;

/** Under a plan's usage: the other workspaces whose domains and scans count against the same plan. */
export function sharedAllowanceLine(workspaces: { name: string }[], plan: string): string {
  const both = workspaces.length === 1 ? 'both workspaces' : 'these workspaces';
  return `Shared with ${workspaces.map((w) => w.name).join(', ')}: the domains and scans of ${both} count against one ${plan} plan.`;
}

/**
 * The 'Failed to Add Domain' message. The server's own words are shown for what it
 * refused on purpose (400 bad input, 409 already added, 403 quota); other failures map by their text.
 */
export function addDomainErrorMessage(error: unknown, maxDomains?: number): string {
  if (error instanceof RequestError) {
    if (error.statusCode === 400 || error.statusCode === 409) return error.message;
    // The request layer keeps only 'Access denied' of a 403; the plan's limit says what the server said.
    if (error.statusCode === 403) {
      return maxDomains === undefined ? DASHBOARD_MESSAGES.addQuota : DOMAIN_MESSAGES.limit(maxDomains);
    }
    if (error.type === 'VALIDATION') return error.message;
  }
  const text = (error instanceof Error ? error.message : String(error)).toLowerCase();
  if (text.includes('timeout')) return DASHBOARD_MESSAGES.addTimeout;
  if (text.includes('network') || text.includes('fetch')) return DASHBOARD_MESSAGES.addNetwork;
  if (text.includes('auth') || text.includes('unauthorized')) return DASHBOARD_MESSAGES.addAuth;
  if (text.includes('limit') || text.includes('quota')) return DASHBOARD_MESSAGES.addQuota;
  return DASHBOARD_MESSAGES.addDefault;
}

/** A failed verify call in words; a refusal the server explained keeps its words. */
export function verifyErrorMessage(error: unknown): string {
  if (error instanceof RequestError) {
    if (error.type === 'NETWORK' || (error.statusCode ?? 0) >= 500)
      return DASHBOARD_MESSAGES.verifyServiceDown;
    if (error.statusCode && error.statusCode < 500 && error.type === 'API_ERROR') return error.message;
  }
  return DASHBOARD_MESSAGES.verifyUnexpected;
}

/** The 'Scan Failed' toast's message: the server's words (a 403's too), or 'Failed to start scan'. */
export function scanErrorMessage(error: unknown): string {
  return error instanceof Error && error.message
    ? serverMessage(error)
    : DASHBOARD_MESSAGES.scanFailedDefault;
}

/**
 * The title of a scan the server refused on purpose (the day's quota, the plan's domains, a scan
 * already running): the refusal's own, since nothing failed. Undefined for a failure.
 */
export function scanRefusalTitle(error: unknown): string | undefined {
  if (!(error instanceof RequestError) || (error.statusCode ?? 500) >= 500) return undefined;
  return isRefusalCode(error.code) ? REFUSALS[error.code].title : undefined;
}
