import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { $currentWorkspace } from '../../../lib/dashboard/workspaces.ts';
import { BILLING_FAQ } from '../../../model/billing.ts';
import { getPlan } from '../../../model/plans.ts';
import type { WorkspaceView } from '../../../model/workspaces.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { LoadError } from '../shared/LoadError.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { BillingHistory } from './BillingHistory.tsx';
import { CurrentPlanCard } from './CurrentPlanCard.tsx';
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
 * Settings → Plan. A team workspace's plan is set by the operator (Stripe bills personal workspaces
 * only for now): it is shown, with whom to ask. A personal workspace's tab is the account's billing.
 */
export function PlanTab() {
  const workspace = useStore($currentWorkspace);
  return workspace && !workspace.personal ? <TeamPlan workspace={workspace} /> : <AccountPlanTab />;
}

/** The team workspace's plan and what it allows; no checkout. */
export function TeamPlan({ workspace }: { workspace: WorkspaceView }) {
  const plan = getPlan(workspace.plan);
  return (
    <div className="max-w-3xl space-y-3 text-sm" data-testid="plan-tab">
      <h2 className="text-lg font-semibold text-ink">
        {workspace.name} is on the {plan.name} plan
      </h2>
      <p className="text-slate-700">
        {plan.limits.domains} {plan.limits.domains === 1 ? 'domain' : 'domains'}, {plan.limits.members}{' '}
        {plan.limits.members === 1 ? 'member' : 'members'}, {plan.limits.retentionDays} days of scan history.
      </p>
      <p className={`${BANNER} border-slate-300 bg-slate-50 text-slate-800`}>
        Ask your operator to change a team workspace's plan.
      </p>
    </div>
  );
}

/** The personal workspace: the current subscription, the plans, billing history and the billing FAQ. */
function AccountPlanTab() {
  const auth = useAuth();
  const { info, failed, reload } = useBillingInfo();
  const [returned] = useState<Return>(checkoutReturn);
  const [confirmed, setConfirmed] = useState(false);

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
        void auth.refreshProfile();
        return;
      }
      if (++polls < CONFIRMATION_POLLS) timer = setTimeout(check, CONFIRMATION_INTERVAL_MS);
    };
    let timer = setTimeout(check, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [returned, reload, auth.refreshProfile]);

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
            Your subscription is past due. Please update your payment method to avoid service interruption.
          </p>
        )}
        {!info.billing.configured && (
          <p
            className={`${BANNER} border-slate-300 bg-slate-50 text-slate-800`}
            data-testid="billing-not-configured"
          >
            Billing is not configured on this server, so plans cannot be bought here. The operator can change
            your plan with <code>danglewatch users set-plan</code>.
          </p>
        )}
      </div>
      <CurrentPlanCard
        info={info}
        onChanged={() => {
          void reload();
          void auth.refreshProfile();
        }}
      />
      <PlansGrid info={info} />
      <BillingHistory info={info} />
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
    </div>
  );
}
