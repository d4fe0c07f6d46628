import type { ScanConfig } from '../../model/contract.ts';
import type { StartScanOptions } from '../request/api.ts';

/** A domain's scan configuration as the start-scan request's options. */
export function startOptions(config: Omit<ScanConfig, 'scanFrequency'>): StartScanOptions {
  return {
    skip_discovery: config.skipDiscovery,
    use_certificate_transparency: config.useCertificateTransparency,
    use_multi_stage_validation: config.useMultiStageValidation,
  };
}

/** The summary line of the add modal's configuration step. */
export function configSummary(config: ScanConfig): string {
  const parts = [
    config.skipDiscovery ? 'only the names you already have (no discovery)' : 'subdomain discovery',
    config.useCertificateTransparency ? 'certificate transparency logs' : null,
    config.useMultiStageValidation ? 'multi-stage validation' : 'single-pass checks',
  ].filter(Boolean);
  const when =
    config.scanFrequency === 'manual'
      ? 'only when you start a scan'
      : config.scanFrequency === 'daily'
        ? 'every day'
        : 'every week';
  return `Scans ${when} with ${parts.join(', ')}.`;
}
