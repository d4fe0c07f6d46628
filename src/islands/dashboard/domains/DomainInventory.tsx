import { useCallback, useEffect, useState } from 'react';
import type { InventoryView } from '../../../lib/dashboard/contract.ts';
import { inventoryLine } from '../../../lib/dashboard/inventory-line.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { RecordsDialog } from './RecordsDialog.tsx';
import { ZoneFileUpload } from './ZoneFileUpload.tsx';

interface DomainInventoryProps {
  domainId: string;
  domainName: string;
  /** Changes when a scan ran (a sync's scan too): the inventory is read again. */
  lastScanAt: string | null;
  now: number;
}

/** A verified domain's record inventory on its card: where it comes from, its records and history. */
export function DomainInventory({ domainId, domainName, lastScanAt, now }: DomainInventoryProps) {
  const [inventory, setInventory] = useState<InventoryView | null>(null);
  const [failed, setFailed] = useState(false);
  const [open, setOpen] = useState(false);

  const load = useCallback(async () => {
    try {
      setInventory(await dashboardApi().domains.records(domainId));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [domainId]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new scan is the reason to read again
  useEffect(() => {
    void load();
  }, [load, lastScanAt]);

  const line = inventory ? inventoryLine(inventory, now) : null;
  return (
    <div
      className="mt-3 flex flex-wrap items-center gap-3 text-xs text-slate-700"
      data-testid="domain-inventory"
    >
      <span data-testid="inventory-line">
        {failed
          ? 'The record inventory could not be read.'
          : !inventory
            ? 'Reading the record inventory...'
            : (line ?? 'No record inventory: scans find names by discovery.')}
      </span>
      {inventory && line && (
        <button type="button" className="font-medium text-brand-700 underline" onClick={() => setOpen(true)}>
          Records and history
        </button>
      )}
      <ZoneFileUpload domainId={domainId} domainName={domainName} onUploaded={() => void load()} />
      {open && inventory && line && (
        <RecordsDialog
          domainName={domainName}
          inventory={inventory}
          summary={line}
          onClose={() => setOpen(false)}
        />
      )}
    </div>
  );
}
