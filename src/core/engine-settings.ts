import type { ScanOptions } from '../scanner/types.ts';

/**
 * The engine settings every scan of this server uses: from the environment in production; tests
 * may set any other engine option (fixture ports, a short wordlist). What a scan chooses itself
 * (discovery, CT, validation) and the signal and progress hooks come from the scan.
 */
export type EngineSettings = Omit<ScanOptions, 'discovery' | 'ct' | 'validation' | 'signal' | 'onProgress'>;
