import { NAME_SOURCE_TEXT } from '../../../lib/dashboard/findings.ts';
import type { FindingView } from '../../../model/contract.ts';

/** Small tags naming where a finding's name came from: zone, CT, wordlist, DNS, given. */
export function FindingSources({ sources }: { sources: FindingView['sources'] }) {
  if (!sources?.length) return null;
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Found through" data-testid="finding-sources">
      {sources.map((source) => (
        <li
          key={source}
          title={NAME_SOURCE_TEXT[source].title}
          className="rounded border border-slate-300 bg-white px-1.5 text-[11px] font-medium text-slate-700"
        >
          {NAME_SOURCE_TEXT[source].tag}
        </li>
      ))}
    </ul>
  );
}
