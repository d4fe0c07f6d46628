import { toast } from '../toast.ts';
import type { ScanView } from './contract.ts';
import { downloadJson } from './download.ts';
import { DASHBOARD_MESSAGES } from './messages.ts';
import { buildScanReport, reportFileName } from './report.ts';
import { dashboardApi } from './services.ts';

/** Downloads `scan-report-{domain}-{id}.json`, with the names checked (only GET one scan has them). */
export async function downloadReport(scan: ScanView): Promise<void> {
  try {
    const full = await dashboardApi().scans.get(scan.scan_id);
    downloadJson(reportFileName(full), buildScanReport(full));
    toast({ title: DASHBOARD_MESSAGES.reportDownloaded, description: reportFileName(full) });
  } catch (error) {
    toast({
      title: 'Download failed',
      description: error instanceof Error ? error.message : 'The report could not be read.',
      variant: 'destructive',
    });
  }
}
