import { useState } from 'react';
import { type BillingInfo, hasPaidSubscription } from '../../../model/billing.ts';
import {
  describeApi,
  describeScans,
  formatPrice,
  onSale,
  PLANS,
  type Plan,
  ROADMAP,
} from '../../../model/plans.ts';
import { BUTTON } from '../shared/buttons.ts';
import { openBillingPortal, startCheckout } from './billing-actions.ts';

/** Catalogue features that only repeat the limits shown above them. */
const RESTATES_A_LIMIT = /^\d[\d,]* domains?$|scans? per day|API calls per hour|^Unlimited scans/i;

/** People in one workspace, the owner and pending invitations included. */
function membersLine(plan: Plan): string {
  return plan.limits.members === 1 ? 'Just you' : `Up to ${plan.limits.members} per workspace`;
}

/** Why a plan cannot be bought here, or null when it can. */
function unavailableReason(plan: Plan, info: BillingInfo): string | null {
  if (!info.billing.purchasable.includes(plan.id)) return `${plan.name} is not sold on this server yet.`;
  return null;
}

/**
 * The available-plans grid: the plans on sale, as the pricing page offers them (and the current
 * plan, should an operator have granted a roadmap one), with the real checkout for those who may
 * buy (`canBuy`: an owner of the workspace); the others see what each plan gives. The roadmap
 * follows, as the pricing page shows it: announced, with no button to buy.
 */
export function PlansGrid({ info, canBuy }: { info: BillingInfo; canBuy: boolean }) {
  const [pending, setPending] = useState<string | null>(null);
  const subscribed = hasPaidSubscription(info);
  const shown = PLANS.filter((plan) => onSale(plan) || plan.id === info.plan.id);
  const announced = ROADMAP.filter(({ plan }) => plan.id !== info.plan.id);
  return (
    <section aria-labelledby="plans-title">
      <h2 id="plans-title" className="text-lg font-semibold text-ink">
        Available plans
      </h2>
      <ul className="mt-3 grid gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="plans-grid">
        {shown.map((plan) => {
          const current = plan.id === info.plan.id;
          const reason = current || plan.priceCents === 0 ? null : unavailableReason(plan, info);
          return (
            <li
              key={plan.id}
              data-plan={plan.id}
              className={`flex flex-col rounded-lg border p-4 ${current ? 'border-brand-600 ring-1 ring-brand-600' : 'border-slate-200'}`}
            >
              <div className="flex items-center justify-between gap-2">
                <h3 className="font-semibold text-ink">{plan.name}</h3>
                {plan.badge && (
                  <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">
                    {plan.badge}
                  </span>
                )}
              </div>
              <p className="mt-1 text-2xl font-bold text-ink">
                {formatPrice(plan.priceCents)}
                <span className="text-sm font-normal text-slate-600">/month</span>
              </p>
              <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                <dt className="text-slate-600">Domains</dt>
                <dd className="font-medium text-ink">{plan.limits.domains.toLocaleString('en-US')}</dd>
                <dt className="text-slate-600">Scans</dt>
                <dd className="font-medium text-ink">{describeScans(plan)}</dd>
                <dt className="text-slate-600">API</dt>
                <dd className="font-medium text-ink">{describeApi(plan)}</dd>
                <dt className="text-slate-600">Members</dt>
                <dd className="font-medium text-ink">{membersLine(plan)}</dd>
              </dl>
              <ul className="mt-3 flex-1 list-inside list-disc space-y-1 text-sm text-slate-700">
                {plan.features
                  .filter((feature) => !RESTATES_A_LIMIT.test(feature))
                  .map((feature) => (
                    <li key={feature}>{feature}</li>
                  ))}
              </ul>
              <div className="mt-4">
                {current ? (
                  <button type="button" className={`${BUTTON.secondary} w-full`} disabled>
                    Current Plan
                  </button>
                ) : !canBuy ? null : plan.priceCents === 0 ? (
                  // Only a subscription can be cancelled; a plan held without one has none to end.
                  subscribed && (
                    <p className="text-sm text-slate-600">Cancel your subscription to return to Free.</p>
                  )
                ) : subscribed && !reason ? (
                  <button
                    type="button"
                    className={`${BUTTON.secondary} w-full`}
                    onClick={() => void openBillingPortal()}
                  >
                    Change in Billing Portal
                  </button>
                ) : (
                  <>
                    <button
                      type="button"
                      className={`${BUTTON.primary} w-full`}
                      disabled={Boolean(reason) || pending !== null}
                      aria-describedby={reason ? `why-${plan.id}` : undefined}
                      onClick={async () => {
                        setPending(plan.id);
                        await startCheckout(plan.name);
                        setPending(null);
                      }}
                    >
                      {pending === plan.id ? 'Opening checkout...' : `Upgrade to ${plan.name}`}
                    </button>
                    {reason && (
                      <p id={`why-${plan.id}`} className="mt-2 text-xs text-slate-600">
                        {reason}
                      </p>
                    )}
                  </>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {announced.length > 0 && (
        <div className="mt-6" data-testid="plans-roadmap">
          <h3 className="font-semibold text-ink">Roadmap: not available yet</h3>
          <p className="mt-1 text-sm text-slate-700">
            Announced on the pricing page; none of these can be bought, and nothing on them is part of any
            plan today.
          </p>
          <ul className="mt-2 divide-y divide-slate-200 text-sm">
            {announced.map(({ plan, quarter }) => (
              <li key={plan.id} data-roadmap-plan={plan.id} className="py-2">
                <span className="font-medium text-ink">{plan.name}</span>{' '}
                <span className="text-slate-600">
                  ({formatPrice(plan.priceCents)}/month, announced for {quarter}):
                </span>{' '}
                <span className="text-slate-700">{plan.features.join(', ')}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
