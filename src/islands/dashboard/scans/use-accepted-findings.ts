import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { findingIdentity } from '../../../lib/dashboard/findings.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { $scansRevision } from '../../../lib/dashboard/store.ts';

/**
 * The findings accepted as risks now (their identities), read again whenever scans or acceptances
 * change: a scan card shows them as accepted, not as the risk they were found with.
 */
export function useAcceptedFindings(): ReadonlySet<string> {
  const revision = useStore($scansRevision);
  const [accepted, setAccepted] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    // Only the marks depend on it: a failure leaves the cards as they are.
    void revision;
    dashboardApi()
      .findings.accepted()
      .then(({ findings }) => setAccepted(new Set(findings.map((f) => findingIdentity(f.finding)))))
      .catch(() => undefined);
  }, [revision]);
  return accepted;
}
