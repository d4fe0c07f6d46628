import type { ScanOptions } from '../scanner/types.ts';
import type { Config } from '../server/config.ts';

/** The engine settings every scan of this server uses, from the environment. */
export type EngineSettings = Pick<
  ScanOptions,
  'resolvers' | 'ctUrl' | 'certspotterUrl' | 'rdapUrl' | 'allowPrivate'
>;

export function engineSettings(config: Config): EngineSettings {
  return {
    ...(config.SCAN_RESOLVERS ? { resolvers: config.SCAN_RESOLVERS } : {}),
    ...(config.CT_URL ? { ctUrl: config.CT_URL } : {}),
    ...(config.CERTSPOTTER_URL ? { certspotterUrl: config.CERTSPOTTER_URL } : {}),
    ...(config.RDAP_URL ? { rdapUrl: config.RDAP_URL } : {}),
    allowPrivate: config.SCAN_ALLOW_PRIVATE,
  };
}
