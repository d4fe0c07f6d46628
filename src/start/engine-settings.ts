import type { EngineSettings } from '../core/engine-settings.ts';
import type { IntegrationUrls } from '../core/integrations/targets.ts';
import { proofSettings } from '../scanner/proof/settings.ts';
import { configuredCloudRanges } from './cloud-ranges.ts';
import type { Config } from './config.ts';
import { liveFingerprints } from './fingerprints.ts';

/**
 * The engine's servers from the environment: the system resolvers and public CT/RDAP by default.
 * The catalogue is a getter: each scan copies the settings, and so reads the fingerprints file as
 * it is then (see `liveFingerprints`).
 */
export function engineSettings(config: Config): EngineSettings {
  const fingerprints = liveFingerprints(config);
  return {
    get fingerprints() {
      return fingerprints();
    },
    ...(config.SCAN_RESOLVERS ? { resolvers: config.SCAN_RESOLVERS } : {}),
    ...(config.CT_URL ? { ctUrl: config.CT_URL } : {}),
    ...(config.CERTSPOTTER_URL ? { certspotterUrl: config.CERTSPOTTER_URL } : {}),
    ...(config.RDAP_URL ? { rdapUrl: config.RDAP_URL } : {}),
    allowPrivate: config.SCAN_ALLOW_PRIVATE,
    proof: proofSettings(config),
    cloudRanges: configuredCloudRanges(config),
  };
}

/** Where integrations reach PagerDuty, GitHub and Linear; Jira's is each admin's own site, resolved through SCAN_RESOLVERS. */
export function integrationUrls(config: Config): IntegrationUrls {
  return {
    pagerduty: config.PAGERDUTY_EVENTS_URL,
    github: config.GITHUB_API_URL,
    linear: config.LINEAR_API_URL,
    allowPlainLoopback: config.SCAN_ALLOW_PRIVATE,
    resolvers: config.SCAN_RESOLVERS ?? [],
  };
}
