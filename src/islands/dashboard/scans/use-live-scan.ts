import { useEffect, useRef } from 'react';
import { isScanActive } from '../../../lib/dashboard/format.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { scansChanged } from '../../../lib/dashboard/store.ts';
import { PROGRESS_POLL_MS } from '../../../model/constants.ts';
import type { ScanView } from '../../../model/contract.ts';

/**
 * While a scan is pending or running, reads it again every PROGRESS_POLL_MS and hands each new
 * view to `onUpdate` (live progress, no reload). When it ends, the lists and stats are read again.
 */
export function useLiveScan(scan: ScanView, onUpdate: (scan: ScanView) => void): void {
  const active = isScanActive(scan.status);
  const update = useRef(onUpdate);
  update.current = onUpdate;

  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const fresh = await dashboardApi().scans.get(scan.scan_id);
        if (stopped) return;
        update.current(fresh);
        if (!isScanActive(fresh.status)) {
          scansChanged();
          return;
        }
      } catch (error) {
        console.warn('Could not read the scan progress', error);
      }
      if (!stopped) timer = setTimeout(poll, PROGRESS_POLL_MS);
    };
    timer = setTimeout(poll, PROGRESS_POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [active, scan.scan_id]);
}
