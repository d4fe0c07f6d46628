import type { ScanOptions } from '../scanner/types.ts';
import type { Config } from '../server/config.ts';

/**
 * The engine settings every scan of this server uses: from the environment in production; tests
 * may set any other engine option (fixture ports, a short wordlist). What a scan chooses itself
 * (discovery, CT, validation) and the signal and progress hooks come from the scan.
 */
export type EngineSettings = Omit<ScanOptions, 'discovery' | 'ct' | 'validation' | 'signal' | 'onProgress'>;

export function engineSettings(config: Config): EngineSettings {
  return {
    ...(config.SCAN_RESOLVERS ? { resolvers: config.SCAN_RESOLVERS } : {}),
    ...(config.CT_URL ? { ctUrl: config.CT_URL } : {}),
    ...(config.CERTSPOTTER_URL ? { certspotterUrl: config.CERTSPOTTER_URL } : {}),
    ...(config.RDAP_URL ? { rdapUrl: config.RDAP_URL } : {}),
    allowPrivate: config.SCAN_ALLOW_PRIVATE,
  };
}
