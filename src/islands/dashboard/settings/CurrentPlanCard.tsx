import { useState } from 'react';
import { sharedAllowanceLine } from '../../../lib/dashboard/messages.ts';
import { type BillingInfo, hasPaidSubscription, type PlanBadge, planLine } from '../../../model/billing.ts';
import { getPlanForTier } from '../../../model/profile.ts';
import { BUTTON } from '../shared/buttons.ts';
import { Dialog } from '../shared/Dialog.tsx';
import { cancelSubscription, openBillingPortal } from './billing-actions.ts';

const STATUS_BADGES: Record<PlanBadge, { label: string; className: string }> = {
  active: { label: 'Active', className: 'bg-green-100 text-green-800' },
  trialing: { label: 'Trialing', className: 'bg-blue-100 text-blue-800' },
  past_due: { label: 'Past Due', className: 'bg-amber-100 text-amber-900' },
  canceled: { label: 'Canceled', className: 'bg-slate-200 text-slate-800' },
};

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });

interface Props {
  info: BillingInfo;
  /** The caller may open the portal and cancel (an owner of the workspace). */
  canManage: boolean;
  /** What the plan belongs to, for the words of the cancel dialog: 'your account' or a team's name. */
  subject: string;
  onChanged: () => void;
}

/** The current-subscription card: plan, status, renewal, usage, and for owners portal and cancel. */
export function CurrentPlanCard({ info, canManage, subject, onChanged }: Props) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const plan = getPlanForTier(info.plan.id);
  const line = planLine(info);
  const badge = line.badge ? STATUS_BADGES[line.badge] : null;
  const paid = hasPaidSubscription(info);
  const periodEnd = info.currentPeriodEnd ? dateFormat.format(new Date(info.currentPeriodEnd)) : null;
  return (
    <section
      className="rounded-lg border border-slate-200 p-5"
      data-testid="current-plan"
      aria-labelledby="current-plan-title"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="current-plan-title" className="text-sm text-slate-600">
            Current plan
          </h2>
          <p className="text-xl font-semibold text-ink" data-testid="plan-line">
            {line.text}
          </p>
        </div>
        {badge && (
          <span
            className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${badge.className}`}
            data-testid="subscription-status"
          >
            {badge.label}
          </span>
        )}
      </div>
      {periodEnd && (
        <p className="mt-2 text-sm text-slate-700">
          {info.cancelAtPeriodEnd
            ? `Canceled: your plan ends on ${periodEnd}, then you are on Free.`
            : `Renews on ${periodEnd}.`}
        </p>
      )}
      <dl className="mt-4 grid grid-cols-3 gap-3 text-sm">
        <div>
          <dt className="text-slate-600">Domains</dt>
          <dd className="font-semibold text-ink">
            {info.usage.domainsMonitored} of {plan.limits.domains}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Scans today</dt>
          <dd className="font-semibold text-ink">{info.usage.scansUsed}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Scans this month</dt>
          <dd className="font-semibold text-ink">{info.usage.scansThisMonth}</dd>
        </div>
      </dl>
      {info.usage.sharedWith.length > 0 && (
        <p className="mt-2 text-xs text-slate-700" data-testid="plan-shared">
          {sharedAllowanceLine(info.usage.sharedWith, plan.name)}
        </p>
      )}
      {canManage && info.billing.configured && info.subscriptionStatus !== 'none' && (
        <div className="mt-4 flex flex-wrap gap-2">
          <button type="button" className={BUTTON.secondary} onClick={() => void openBillingPortal()}>
            Manage Billing
          </button>
          {paid && !info.cancelAtPeriodEnd && (
            <button type="button" className={BUTTON.secondary} onClick={() => setConfirming(true)}>
              Cancel Subscription
            </button>
          )}
        </div>
      )}
      {confirming && (
        <Dialog
          title="Cancel your subscription?"
          description={`${plan.name} stays active until ${periodEnd ?? 'the end of the paid period'}; then ${subject} moves to Free and keeps 1 domain.`}
          onClose={() => setConfirming(false)}
          footer={
            <>
              <button
                type="button"
                className={BUTTON.secondary}
                onClick={() => setConfirming(false)}
                disabled={busy}
              >
                Keep My Plan
              </button>
              <button
                type="button"
                className={BUTTON.danger}
                disabled={busy}
                onClick={async () => {
                  setBusy(true);
                  if (await cancelSubscription()) {
                    setConfirming(false);
                    onChanged();
                  }
                  setBusy(false);
                }}
              >
                {busy ? 'Canceling...' : 'Cancel Subscription'}
              </button>
            </>
          }
        >
          <p className="text-sm text-slate-700">
            Nothing more will be charged. Paid periods are not refunded.
          </p>
        </Dialog>
      )}
    </section>
  );
}
