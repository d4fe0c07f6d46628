import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState } from 'react';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { $currentWorkspace, loadWorkspaces } from '../../../lib/dashboard/workspaces.ts';
import { BILLING_FAQ } from '../../../model/billing.ts';
import { can } from '../../../model/workspaces.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { LoadError } from '../shared/LoadError.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { BillingHistory } from './BillingHistory.tsx';
import { CurrentPlanCard } from './CurrentPlanCard.tsx';
import { NoSalesNotice } from './NoSalesNotice.tsx';
import { PlansGrid } from './PlansGrid.tsx';
import { useBillingInfo } from './use-billing-info.ts';

/** How long a checkout return waits for Stripe's webhook to land before it stops asking. */
const CONFIRMATION_POLLS = 15;
const CONFIRMATION_INTERVAL_MS = 2_000;

type Return = 'success' | 'canceled' | null;

function checkoutReturn(): Return {
  const params = new URLSearchParams(window.location.search);
  if (params.get('success') === 'true') return 'success';
  if (params.get('canceled') === 'true') return 'canceled';
  return null;
}

const BANNER = 'rounded-md border px-4 py-3 text-sm';

/**
 * Settings → Plan of the current workspace: its subscription, the plans, billing history and the
 * billing FAQ; on a server that sells no plans, only the plan it has and who sets it. Every member sees what it is on and uses; its owners buy, change and cancel, and see
 * the invoices.
 */
export function PlanTab() {
  const workspace = useStore($currentWorkspace);
  const owner = !workspace || can(workspace.role, 'workspace.billing');
  const team = workspace && !workspace.personal ? workspace.name : null;
  const auth = useAuth();
  const { info, failed, reload } = useBillingInfo();
  const [returned] = useState<Return>(checkoutReturn);
  const [confirmed, setConfirmed] = useState(false);
  // The plan shows in the profile (the personal workspace's) and in the workspace switcher.
  const refreshPlan = useCallback(() => {
    void auth.refreshProfile();
    void loadWorkspaces(dashboardApi().workspaces);
  }, [auth.refreshProfile]);

  // Back from checkout: Stripe's webhook may land a moment after the browser does.
  useEffect(() => {
    if (returned !== 'success') return;
    let polls = 0;
    let stopped = false;
    const check = async () => {
      const next = await reload();
      if (stopped) return;
      if (next && next.plan.price > 0 && next.subscriptionStatus !== 'canceled') {
        setConfirmed(true);
        refreshPlan();
        return;
      }
      if (++polls < CONFIRMATION_POLLS) timer = setTimeout(check, CONFIRMATION_INTERVAL_MS);
    };
    let timer = setTimeout(check, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [returned, reload, refreshPlan]);

  if (!info) {
    return failed ? (
      <LoadError message="Failed to load billing information" onRetry={() => void reload()} />
    ) : (
      <Spinner label="Loading billing information" />
    );
  }
  return (
    <div className="max-w-5xl space-y-8" data-testid="plan-tab">
      <div className="space-y-3" aria-live="polite">
        {returned === 'success' && (
          <p
            className={`${BANNER} border-green-300 bg-green-50 text-green-900`}
            data-testid="checkout-success"
          >
            {confirmed
              ? `Thank you! You are now on ${info.plan.name}.`
              : 'Thank you! Your payment went through; your new plan appears here as soon as Stripe confirms it.'}
          </p>
        )}
        {returned === 'canceled' && (
          <p
            className={`${BANNER} border-slate-300 bg-slate-50 text-slate-800`}
            data-testid="checkout-canceled"
          >
            Checkout was canceled. Nothing was charged and your plan is unchanged.
          </p>
        )}
        {info.subscriptionStatus === 'past_due' && (
          <p role="alert" className={`${BANNER} border-amber-300 bg-amber-50 text-amber-900`}>
            {team ? `The subscription of ${team} is past due.` : 'Your subscription is past due.'}{' '}
            {owner
              ? 'Please update your payment method to avoid service interruption.'
              : 'Please ask an owner to update its payment method.'}
          </p>
        )}
        {!owner && (
          <p
            className={`${BANNER} border-slate-300 bg-slate-50 text-slate-800`}
            data-testid="billing-owner-only"
          >
            Only an owner of {team} can change its plan.
          </p>
        )}
        {!info.billing.configured && <NoSalesNotice info={info} team={team} />}
      </div>
      <CurrentPlanCard
        info={info}
        canManage={owner}
        subject={team ?? 'your account'}
        onChanged={() => {
          void reload();
          refreshPlan();
        }}
      />
      {info.billing.configured && (
        <>
          <PlansGrid info={info} canBuy={owner} />
          {owner && <BillingHistory info={info} />}
          <section aria-labelledby="billing-faq-title">
            <h2 id="billing-faq-title" className="text-lg font-semibold text-ink">
              Billing FAQ
            </h2>
            <div className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200">
              {BILLING_FAQ.map((item) => (
                <details key={item.q} className="px-4 py-3 text-sm">
                  <summary className="cursor-pointer font-medium text-ink">{item.q}</summary>
                  <p className="mt-2 text-slate-700">{item.a}</p>
                </details>
              ))}
            </div>
          </section>
        </>
      )}
    </div>
  );
}
