import type { DomainView } from '../../../model/contract.ts';
import { CopyButton } from '../shared/CopyButton.tsx';

/**
 * The TXT record that proves ownership: type, name and value, each copyable. The name is relative to
 * the registered domain's zone (@ is that domain itself); the hint names the exact host it is read at.
 */
export function TxtRecordDetails({ domain }: { domain: DomainView }) {
  const record = domain.txtRecord;
  const zone = domain.domain.slice(record.name.length + 1);
  const rows = [
    { label: 'Type', value: record.type, hint: null },
    {
      label: 'Name',
      value: record.name,
      hint:
        record.name === '@'
          ? `@ or empty: ${domain.domain} itself`
          : `the host ${domain.domain}, in the DNS zone of ${zone}`,
    },
    { label: 'Value', value: record.value, hint: null },
  ];
  return (
    <dl
      className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white text-sm"
      data-testid="txt-record"
    >
      {rows.map((row) => (
        <div key={row.label} className="flex items-center gap-3 px-3 py-2">
          <dt className="w-14 shrink-0 text-slate-600">{row.label}</dt>
          <dd className="flex min-w-0 flex-1 items-center justify-between gap-3">
            <span className="min-w-0">
              <code className="font-mono break-all text-ink" data-testid={`txt-${row.label.toLowerCase()}`}>
                {row.value}
              </code>
              {row.hint && <span className="ml-2 text-xs text-slate-500">({row.hint})</span>}
            </span>
            <CopyButton value={row.value} label={`Copy TXT ${row.label.toLowerCase()}`} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
