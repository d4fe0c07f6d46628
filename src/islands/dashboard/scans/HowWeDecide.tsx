import type { ScanView } from '../../../model/contract.ts';
import { fingerprintsLine } from '../../../model/fingerprint-sources.ts';

/**
 * How a completed scan's verdicts were reached, and the dated sources of the fingerprints they
 * rest on: the catalogue updates between releases, so each scan says which one it used.
 */
export function HowWeDecide({ scan }: { scan: Pick<ScanView, 'status' | 'fingerprints'> }) {
  if (scan.status !== 'completed') return null;
  const sources = fingerprintsLine(scan.fingerprints);
  return (
    <section
      className="mt-4 text-sm text-slate-700"
      aria-labelledby="how-we-decide"
      data-testid="how-we-decide"
    >
      <h3 id="how-we-decide" className="font-semibold text-ink">
        How we decide
      </h3>
      <p className="mt-1">
        Each record is followed to the service it points at and compared with that service's takeover
        fingerprints, taken from public references and dated. A finding is claimable only when the provider
        itself says the name is free; a match without that proof is likely; a stale record with no known way
        to take it over is review.
      </p>
      <p className="mt-1 font-medium text-ink">
        {sources ?? 'This scan ran before DangleWatch recorded which fingerprints a scan used.'}
      </p>
    </section>
  );
}
