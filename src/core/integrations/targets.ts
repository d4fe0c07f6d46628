import { GITHUB_API_URL, github } from '../../connectors/github/github.ts';
import { ConnectorError } from '../../connectors/http/error.ts';
import { type JiraSiteOptions, jira } from '../../connectors/jira/jira.ts';
import { LINEAR_API_URL, linear } from '../../connectors/linear/linear.ts';
import { PAGERDUTY_EVENTS_URL, pagerduty } from '../../connectors/pagerduty/pagerduty.ts';
import type { Tracker } from '../../connectors/tracker/tracker.ts';
import type { IntegrationKind } from '../../model/integrations.ts';

/** What each service's base URL is, unless the environment says otherwise (tests run loopback ones). */
export interface IntegrationUrls {
  pagerduty: string;
  github: string;
  linear: string;
  /** Jira's is the admin's own site: plain http only to loopback, only when this allows it. */
  allowPlainLoopback: boolean;
  /** The scan resolvers (SCAN_RESOLVERS), through which a Jira site's name is resolved. */
  resolvers?: readonly string[];
  /** Per request; a service slower than this is tried again later. */
  timeoutMs?: number;
}

export const DEFAULT_INTEGRATION_URLS: IntegrationUrls = {
  pagerduty: PAGERDUTY_EVENTS_URL,
  github: GITHUB_API_URL,
  linear: LINEAR_API_URL,
  allowPlainLoopback: false,
};

/** Per request to a service, unless the settings say otherwise. */
export const INTEGRATION_TIMEOUT_MS = 10_000;

/** How the admin's Jira site is reached under these settings. */
export function jiraSite(urls: IntegrationUrls): JiraSiteOptions {
  return {
    timeoutMs: urls.timeoutMs ?? INTEGRATION_TIMEOUT_MS,
    userHost: {
      resolvers: urls.resolvers ?? [],
      allowPrivate: urls.allowPlainLoopback ? ['127.0.0.1', '::1'] : false,
    },
  };
}

type Json = Record<string, unknown>;

/** The tracker of one integration, from its settings and unsealed credentials. */
export function targetOf(
  kind: IntegrationKind,
  settings: Json,
  credentials: Json,
  urls: IntegrationUrls,
): Tracker {
  const options = { timeoutMs: urls.timeoutMs ?? INTEGRATION_TIMEOUT_MS };
  switch (kind) {
    case 'pagerduty':
      return pagerduty(credentials, urls.pagerduty, options);
    case 'github':
      return github(settings, credentials, urls.github, options);
    case 'linear':
      return linear(settings, credentials, urls.linear, options);
    case 'jira':
      return jira(settings, credentials, jiraSite(urls));
    default:
      throw new ConnectorError(kind, 'refused', { message: `${kind} is not available yet` });
  }
}
