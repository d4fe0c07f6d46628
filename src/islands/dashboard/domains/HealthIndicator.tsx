import type { ServiceHealthState } from '../../../lib/dashboard/service-health.ts';

const LOOK: Record<ServiceHealthState['status'], { dot: string; text: string }> = {
  healthy: { dot: 'bg-green-600', text: 'Scanning service healthy' },
  degraded: { dot: 'bg-amber-500', text: 'Scanning service degraded' },
  down: { dot: 'bg-red-600', text: 'Scanning service down' },
  unknown: { dot: 'bg-slate-400', text: 'Checking scanning service...' },
};

/** The service-health indicator of the domains screen, from GET /scan/health. */
export function HealthIndicator({ health }: { health: ServiceHealthState }) {
  const look = LOOK[health.status];
  return (
    <p
      className="flex items-center gap-2 text-sm text-slate-700"
      data-testid="health-indicator"
      data-status={health.status}
    >
      <span aria-hidden="true" className={`h-2.5 w-2.5 rounded-full ${look.dot}`} />
      {look.text}
      {health.responseTime !== null && health.status !== 'unknown' && (
        <span className="text-xs text-slate-500">({health.responseTime} ms)</span>
      )}
    </p>
  );
}
