import { scanQuota } from '../../lib/auth/profile.ts';
import { useAuth } from '../auth/auth-context.tsx';
import { EmptyState } from './EmptyState.tsx';

export function DomainsSection() {
  const { userProfile } = useAuth();
  return (
    <section aria-labelledby="domains-heading">
      <h1 id="domains-heading" className="text-2xl font-bold text-ink">
        Domain Management
      </h1>
      <p className="mt-1 text-slate-600">The domains DangleWatch watches for you, scanned every day.</p>
      <EmptyState title="No domains yet">
        Adding and verifying domains is coming next.
        {userProfile?.scanQuota && (
          <span className="block">
            Your plan allows {domains(scanQuota(userProfile.tier, 0, new Date()).maxDomains)} and{' '}
            {dailyScans(userProfile.scanQuota.daily)}.
          </span>
        )}
      </EmptyState>
    </section>
  );
}

function domains(n: number): string {
  return n === 1 ? '1 domain' : `${n} domains`;
}

function dailyScans(daily: number | null): string {
  if (daily === null) return 'unlimited scans';
  return daily === 1 ? '1 scan per day' : `${daily} scans per day`;
}
