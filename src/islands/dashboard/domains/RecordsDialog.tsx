import { formatDateTime } from '../../../lib/dashboard/format.ts';
import type { InventoryView } from '../../../model/contract.ts';
import { Dialog } from '../shared/Dialog.tsx';

interface RecordsDialogProps {
  domainName: string;
  inventory: InventoryView;
  /** The inventory's line: where it comes from and when it was read. */
  summary: string;
  onClose: () => void;
}

const CHANGE_STYLE: Record<InventoryView['history'][number]['change'], string> = {
  added: 'bg-green-100 text-green-800',
  changed: 'bg-amber-100 text-amber-900',
  removed: 'bg-red-100 text-red-800',
};

/** A domain's record inventory and what changed in it, newest change first. */
export function RecordsDialog({ domainName, inventory, summary, onClose }: RecordsDialogProps) {
  return (
    <Dialog title={`Records of ${domainName}`} description={summary} onClose={onClose} wide>
      <h3 className="text-sm font-semibold text-ink">History</h3>
      {inventory.history.length === 0 ? (
        <p className="mt-1 text-sm text-slate-700">No change since the first read.</p>
      ) : (
        <ul className="mt-1 space-y-1 text-xs" data-testid="record-history">
          {inventory.history.map((h) => (
            <li key={`${h.at}-${h.change}-${h.name}-${h.type}-${h.data}`} className="flex flex-wrap gap-2">
              <span className={`rounded px-1.5 font-semibold ${CHANGE_STYLE[h.change]}`}>{h.change}</span>
              <span className="text-slate-600">{formatDateTime(h.at)}</span>
              <span className="font-mono break-all text-ink">
                {h.name} {h.ttl} {h.type} {h.data}
              </span>
            </li>
          ))}
        </ul>
      )}
      <h3 className="mt-4 text-sm font-semibold text-ink">Records ({inventory.records.length})</h3>
      <div className="mt-1 max-h-80 overflow-auto">
        <table className="w-full text-left text-xs" data-testid="record-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">TTL</th>
              <th scope="col">Data</th>
              <th scope="col">First seen</th>
            </tr>
          </thead>
          <tbody className="font-mono">
            {inventory.records.map((r) => (
              <tr key={`${r.name}-${r.type}-${r.data}`} className="align-top">
                <td className="break-all">{r.name}</td>
                <td>{r.type}</td>
                <td>{r.ttl}</td>
                <td className="break-all">{r.data}</td>
                <td className="font-sans whitespace-nowrap">{formatDateTime(r.firstSeenAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Dialog>
  );
}
