import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { downloadJson } from '../../../lib/dashboard/download.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { $currentWorkspace } from '../../../lib/dashboard/workspaces.ts';
import { toast } from '../../../lib/toast.ts';
import { HELD_CREDENTIALS, HELD_CREDENTIALS_INTRO } from '../../../model/held-credentials.ts';
import { DATA_RETENTION, getPlan } from '../../../model/plans.ts';
import { getPlanForTier } from '../../../model/profile.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { BUTTON } from '../shared/buttons.ts';
import { DeleteAccountDialog } from './DeleteAccountDialog.tsx';

const CARD = 'rounded-lg border border-slate-200 p-5';

/** Settings → Data: export everything we hold, what we keep and why, and deleting the account. */
export function DataTab() {
  const auth = useAuth();
  const [exporting, setExporting] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const workspace = useStore($currentWorkspace);
  // Scans are kept by the plan of the workspace they belong to; without the list, the personal one's.
  const plan = workspace ? getPlan(workspace.plan) : getPlanForTier(auth.userProfile?.tier ?? 'free');

  const exportData = async () => {
    setExporting(true);
    try {
      const data = await dashboardApi().account.exportData();
      downloadJson(`danglewatch-export-${new Date().toISOString().slice(0, 10)}.json`, data);
      toast({ title: 'Data Exported', description: 'Your data has been exported successfully' });
    } catch {
      toast({ title: 'Failed to export your data. Please try again.', variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="max-w-3xl space-y-6 text-sm text-slate-700" data-testid="data-tab">
      <section className={CARD} aria-labelledby="export-title">
        <h2 id="export-title" className="text-lg font-semibold text-ink">
          Data Export
        </h2>
        <p className="mt-1">
          One JSON file with everything we hold about you: your profile and plan, domains, scans with their
          findings, finding history, alert settings, webhooks and their deliveries, API keys (never the keys
          themselves) and the audit log of your account.
        </p>
        <button
          type="button"
          className={`${BUTTON.secondary} mt-4`}
          onClick={() => void exportData()}
          disabled={exporting}
        >
          {exporting ? 'Exporting...' : 'Export My Data'}
        </button>
      </section>
      <section className={CARD} aria-labelledby="privacy-title">
        <h2 id="privacy-title" className="text-lg font-semibold text-ink">
          Privacy & Security
        </h2>
        <ul className="mt-2 list-inside list-disc space-y-1">
          <li>
            Scan results are kept {plan.limits.retentionDays} days on{' '}
            {workspace && !workspace.personal ? `the plan of ${workspace.name}` : 'your plan'} ({plan.name}),
            then deleted.
          </li>
          {DATA_RETENTION.filter((row) => row.data !== 'Scan results').map((row) => (
            <li key={row.data}>
              {row.data}: {row.period.charAt(0).toLowerCase() + row.period.slice(1)}.
            </li>
          ))}
          <li>
            We read public DNS, certificate-transparency logs and HTTP answers, and the zones of the DNS
            providers you connect.
          </li>
        </ul>
        <h3 className="mt-4 font-semibold text-ink">The credentials we hold</h3>
        <p className="mt-1">{HELD_CREDENTIALS_INTRO}</p>
        <ul className="mt-2 space-y-2" data-testid="held-credentials">
          {HELD_CREDENTIALS.map((held) => (
            <li key={held.kind} data-kind={held.kind}>
              <span className="font-medium text-ink">{held.name}</span> ({held.tab}). {held.what} {held.can}{' '}
              {held.kept} {held.removed}
            </li>
          ))}
        </ul>
        <p className="mt-3">
          Read the{' '}
          <a className="text-brand-700 underline" href="/privacy-policy">
            privacy policy
          </a>{' '}
          and{' '}
          <a className="text-brand-700 underline" href="/trust-security">
            how we handle your data
          </a>
          .
        </p>
      </section>
      <section className={`${CARD} border-red-200`} aria-labelledby="delete-title">
        <h2 id="delete-title" className="text-lg font-semibold text-red-800">
          Delete Account
        </h2>
        <p className="mt-1">
          Deletes your account, domains, scans, findings, alerts, webhooks and API keys at once, and signs you
          out. This cannot be undone; export your data first if you want to keep it.
        </p>
        <button type="button" className={`${BUTTON.danger} mt-4`} onClick={() => setDeleting(true)}>
          Delete Account
        </button>
      </section>
      {deleting && <DeleteAccountDialog onClose={() => setDeleting(false)} />}
    </div>
  );
}
