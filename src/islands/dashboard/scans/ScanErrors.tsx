import type { ScanErrorView } from '../../../model/contract.ts';
import { scanErrorSentence, uncheckedNames } from '../../../model/scan-errors.ts';

/** Errors listed in full; the rest are counted (the JSON report has every one). */
const SHOWN = 50;

/**
 * The checks a scan could not finish, a sentence each ("Could not check www.acme.io: the server
 * kept sending after 256 KB"): a name listed here was not checked, so it is not clean either.
 */
export function ScanErrors({
  errors,
  checked,
}: {
  errors: readonly ScanErrorView[];
  checked: readonly string[];
}) {
  if (errors.length === 0) return null;
  const unchecked = uncheckedNames(errors, checked).length;
  return (
    <section className="mt-6" aria-labelledby="scan-errors-heading" data-testid="scan-errors">
      <h3 id="scan-errors-heading" className="text-base font-semibold text-ink">
        Could not finish every check ({errors.length})
      </h3>
      {unchecked > 0 && (
        <p className="mt-1 text-sm text-slate-700">
          {unchecked === 1 ? '1 name' : `${unchecked} names`} could not be checked: not counted as clean, and
          any finding they had stays open.
        </p>
      )}
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-amber-900">
        {errors.slice(0, SHOWN).map((error) => (
          <li key={`${error.stage} ${error.subdomain ?? ''} ${error.message}`}>{scanErrorSentence(error)}</li>
        ))}
      </ul>
      {errors.length > SHOWN && (
        <p className="mt-1 text-sm text-slate-700">
          … and {errors.length - SHOWN} more, in the report download.
        </p>
      )}
    </section>
  );
}
