import type { ScanView } from '../../model/contract.ts';
import { buildSarif, sarifFileName } from '../../model/sarif.ts';
import { toast } from '../toast.ts';
import { downloadJson } from './download.ts';
import { DASHBOARD_MESSAGES } from './messages.ts';
import { buildScanReport, reportFileName } from './report.ts';
import { dashboardApi } from './services.ts';

/**
 * Downloads `scan-report-{domain}-{id}.json`, with the names checked (only GET one scan has them),
 * or the same scan as SARIF 2.1.0 for code-scanning dashboards.
 */
export async function downloadReport(scan: ScanView, format: 'json' | 'sarif' = 'json'): Promise<void> {
  try {
    const full = await dashboardApi().scans.get(scan.scan_id);
    const name = format === 'json' ? reportFileName(full) : sarifFileName(full);
    if (format === 'json') downloadJson(name, buildScanReport(full));
    else downloadJson(name, buildSarif(full), 'application/sarif+json');
    toast({ title: DASHBOARD_MESSAGES.reportDownloaded, description: name });
  } catch (error) {
    toast({
      title: 'Download failed',
      description: error instanceof Error ? error.message : 'The report could not be read.',
      variant: 'destructive',
    });
  }
}
