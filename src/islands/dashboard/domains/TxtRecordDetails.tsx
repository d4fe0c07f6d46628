import type { DomainView } from '../../../model/contract.ts';
import { CopyButton } from '../shared/CopyButton.tsx';

/** The TXT record that proves ownership: type, name (@ is the domain itself) and value, each copyable. */
export function TxtRecordDetails({ record }: { record: DomainView['txtRecord'] }) {
  const rows = [
    { label: 'Type', value: record.type, hint: null },
    { label: 'Name', value: record.name, hint: '@ or empty: the root domain' },
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
