import type { ScanView } from '../../model/contract.ts';

/**
 * The scans shown after 'Load More Scans': the next page appended, without the scans already
 * shown (a scan started meanwhile shifts the server's pages by one, so a page may repeat one).
 */
export function appendPage(shown: readonly ScanView[], page: readonly ScanView[]): ScanView[] {
  const known = new Set(shown.map((scan) => scan.scan_id));
  return [...shown, ...page.filter((scan) => !known.has(scan.scan_id))];
}

/** Whether 'Load More Scans' has anything left to load. */
export function hasMoreScans(shown: number, total: number): boolean {
  return shown < total;
}
