import type { ServiceHealthState } from '../../../lib/dashboard/service-health.ts';
import { proofsOffText } from '../../../model/proof.ts';

/** Which proof checks the server runs without: users should know why a finding stays likely. */
export function ProofsOffNotice({ health }: { health: ServiceHealthState }) {
  const text = proofsOffText(health.proofsOff ?? []);
  if (!text) return null;
  return (
    <p
      className="mt-4 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700"
      data-testid="proofs-off"
    >
      {text}
    </p>
  );
}
