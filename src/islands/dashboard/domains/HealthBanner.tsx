import { useState } from 'react';
import { DASHBOARD_MESSAGES } from '../../../lib/dashboard/messages.ts';
import { recheckServiceHealth, type ServiceHealthState } from '../../../lib/dashboard/service-health.ts';
import { BUTTON } from '../shared/buttons.ts';

/** What failed, in words, from the health checks (database, queue, worker heartbeat). */
function failedChecks(health: ServiceHealthState): string | null {
  if (!health.checks) return health.error;
  const names = { database: 'the database', queue: 'the job queue', worker: 'the scan worker' } as const;
  const down = (Object.keys(names) as (keyof typeof names)[]).filter((key) => !health.checks?.[key]);
  return down.length === 0 ? null : `Not answering: ${down.map((key) => names[key]).join(', ')}.`;
}

/** The degraded and down banners of the domains screen; down offers a retry. */
export function HealthBanner({ health }: { health: ServiceHealthState }) {
  const [checking, setChecking] = useState(false);
  if (health.status === 'degraded') {
    return (
      <div
        role="status"
        className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
      >
        <p className="font-semibold">The scanning service is degraded.</p>
        <p>{DASHBOARD_MESSAGES.degradedToast} You can still add domains.</p>
        {failedChecks(health) && <p className="mt-1">{failedChecks(health)}</p>}
      </div>
    );
  }
  if (health.status !== 'down') return null;
  const retry = async () => {
    setChecking(true);
    await recheckServiceHealth();
    setChecking(false);
  };
  return (
    <div role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
      <p className="font-semibold">{DASHBOARD_MESSAGES.serviceUnavailable}</p>
      <p>Adding, verifying and scanning domains are paused until it answers again.</p>
      {failedChecks(health) && <p className="mt-1">{failedChecks(health)}</p>}
      <button type="button" className={`${BUTTON.small} mt-2`} onClick={retry} disabled={checking}>
        {checking ? 'Checking...' : 'Retry'}
      </button>
    </div>
  );
}
