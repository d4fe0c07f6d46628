import { useState } from 'react';
import { inventoryLine } from '../../../lib/dashboard/inventory-line.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { loadDomains } from '../../../lib/dashboard/store.ts';
import type { InventorySummary, InventoryView } from '../../../model/contract.ts';
import { useCan } from '../shared/use-can.ts';
import { RecordsDialog, type RecordsPage } from './RecordsDialog.tsx';
import { ZoneFileUpload } from './ZoneFileUpload.tsx';

interface DomainInventoryProps {
  domainId: string;
  domainName: string;
  /** The inventory in brief, from the domain list: the records are read only when asked for. */
  inventory: InventorySummary | null;
  now: number;
}

/** A verified domain's record inventory on its card: where it comes from, its records and history. */
export function DomainInventory({ domainId, domainName, inventory, now }: DomainInventoryProps) {
  const [records, setRecords] = useState<InventoryView | null>(null);
  const [failed, setFailed] = useState(false);
  const mayWrite = useCan('domains.write');
  const [reading, setReading] = useState(false);

  // Read when the dialog opens, not with every card, and a page at a time: a zone may hold 100,000 records.
  const load = (page: RecordsPage) => dashboardApi().domains.records(domainId, page);
  const open = async () => {
    setReading(true);
    try {
      setRecords(await load({}));
      setFailed(false);
    } catch {
      setFailed(true);
    } finally {
      setReading(false);
    }
  };

  const line = inventoryLine(inventory, now);
  return (
    <div
      className="mt-3 flex flex-wrap items-center gap-3 text-xs text-slate-700"
      data-testid="domain-inventory"
    >
      <span data-testid="inventory-line">
        {line ?? 'No record inventory: scans find names by discovery.'}
      </span>
      {line && (
        <button
          type="button"
          className="font-medium text-brand-700 underline"
          disabled={reading}
          onClick={() => void open()}
        >
          Records and history
        </button>
      )}
      {failed && <span role="alert">The records could not be read. Please try again.</span>}
      {mayWrite && (
        <ZoneFileUpload
          domainId={domainId}
          domainName={domainName}
          onUploaded={() => void loadDomains(dashboardApi().domains)}
        />
      )}
      {records && line && (
        <RecordsDialog
          domainName={domainName}
          inventory={records}
          load={load}
          summary={line}
          onClose={() => setRecords(null)}
        />
      )}
    </div>
  );
}
