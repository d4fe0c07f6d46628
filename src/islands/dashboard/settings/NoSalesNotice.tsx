import type { BillingInfo } from '../../../model/billing.ts';

interface Props {
  info: BillingInfo;
  /** The team workspace's name; null for the personal one. */
  team: string | null;
}

/**
 * The Plan tab of a server that sells no plans: which plan this workspace has and who sets it,
 * in place of plans and checkout that cannot be bought here.
 */
export function NoSalesNotice({ info, team }: Props) {
  const who = info.billing.serverPlan ? 'every workspace' : (team ?? 'your workspace');
  return (
    <p
      className="rounded-md border border-slate-300 bg-slate-50 px-4 py-3 text-sm text-slate-800"
      data-testid="no-sales"
    >
      This server sells no plans: {who} has {info.plan.name} (set by whoever runs it).
    </p>
  );
}
