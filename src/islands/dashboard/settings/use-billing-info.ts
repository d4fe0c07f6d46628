import { useCallback, useEffect, useState } from 'react';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { toast } from '../../../lib/toast.ts';
import type { BillingInfo } from '../../../model/billing.ts';

/** The account's billing info, loaded once per mount; `reload` after anything changes it. */
export function useBillingInfo() {
  const [info, setInfo] = useState<BillingInfo | null>(null);
  const [failed, setFailed] = useState(false);
  const reload = useCallback(async () => {
    try {
      const next = await dashboardApi().account.billingInfo();
      setInfo(next);
      setFailed(false);
      return next;
    } catch {
      setFailed(true);
      toast({ title: 'Failed to load billing information', variant: 'destructive' });
      return null;
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { info, setInfo, failed, reload };
}
