import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { $scansRevision } from '../../../lib/dashboard/store.ts';
import type { ScanStats } from '../../../model/contract.ts';

/** GET /scan/api/v1/scans/stats, read again whenever scans change; null until the first answer. */
export function useScanStats(): ScanStats | null {
  const revision = useStore($scansRevision);
  const [stats, setStats] = useState<ScanStats | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new revision is the signal to read again
  useEffect(() => {
    let live = true;
    dashboardApi()
      .scans.stats()
      .then((answer) => {
        if (live) setStats(answer);
      })
      .catch((error) => console.warn('Could not load scan statistics', error));
    return () => {
      live = false;
    };
  }, [revision]);
  return stats;
}
