import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState } from 'react';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { $workspaceId } from '../../../lib/dashboard/workspaces.ts';
import { toast } from '../../../lib/toast.ts';
import type { BillingInfo } from '../../../model/billing.ts';

/**
 * The current workspace's billing info, loaded on mount and whenever the workspace changes;
 * `reload` after anything changes it.
 */
export function useBillingInfo() {
  const workspaceId = useStore($workspaceId);
  const [info, setInfo] = useState<BillingInfo | null>(null);
  const [failed, setFailed] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the request reads the workspace from the store; a new one must load again.
  const reload = useCallback(async () => {
    try {
      const next = await dashboardApi().billing.info();
      setInfo(next);
      setFailed(false);
      return next;
    } catch {
      setFailed(true);
      toast({ title: 'Failed to load billing information', variant: 'destructive' });
      return null;
    }
  }, [workspaceId]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { info, setInfo, failed, reload };
}
