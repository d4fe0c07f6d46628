import { useEffect, useRef, useState } from 'react';
import { inventorySourceLabel } from '../../../lib/dashboard/dns-providers.ts';
import { formatDateTime } from '../../../lib/dashboard/format.ts';
import { INVENTORY_RECORD_TYPES } from '../../../model/constants.ts';
import type { InventorySource, InventoryView } from '../../../model/contract.ts';
import { BUTTON } from '../shared/buttons.ts';
import { Dialog } from '../shared/Dialog.tsx';
import { ScrollRegion } from '../shared/ScrollRegion.tsx';
import { useDebounced } from '../shared/use-debounced.ts';

/** Which page of the inventory to read: after `cursor`, of the names holding `q`, of one `type`. */
export interface RecordsPage {
  cursor?: string;
  q?: string;
  type?: string;
}

interface RecordsDialogProps {
  domainName: string;
  /** The first page, read when the dialog was asked for. */
  inventory: InventoryView;
  /** Reads another page: the next one, or the first of another search. */
  load: (page: RecordsPage) => Promise<InventoryView>;
  /** The inventory's line: where it comes from and when it was read. */
  summary: string;
  onClose: () => void;
}

const CHANGE_STYLE: Record<InventoryView['history'][number]['change'], string> = {
  added: 'bg-green-100 text-green-800',
  changed: 'bg-amber-100 text-amber-900',
  removed: 'bg-red-100 text-red-800',
};

/** Typing in the search box asks the server once it pauses this long. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * A domain's record inventory and what changed in it, newest change first. The records come a
 * page at a time (a zone may hold 100,000), searched by name and filtered by type on the server.
 */
export function RecordsDialog({ domainName, inventory, load, summary, onClose }: RecordsDialogProps) {
  const [search, setSearch] = useState('');
  const [type, setType] = useState('');
  const q = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const [shown, setShown] = useState(inventory);
  const [reading, setReading] = useState(false);
  const [failed, setFailed] = useState(false);
  // Only the answer to the latest request is shown: an earlier search may answer after a later one.
  const latest = useRef(0);
  const filtered = q !== '' || type !== '';

  const read = async (page: RecordsPage, append: boolean) => {
    const request = ++latest.current;
    setReading(true);
    try {
      const next = await load(page);
      if (request !== latest.current) return;
      setShown((before) => (append ? { ...next, records: [...before.records, ...next.records] } : next));
      setFailed(false);
    } catch {
      if (request === latest.current) setFailed(true);
    } finally {
      if (request === latest.current) setReading(false);
    }
  };

  // The first page of a search, once per search: the dialog opens with the unfiltered one.
  const readFor = useRef('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search or type reads its first page
  useEffect(() => {
    const key = `${q}|${type}`;
    if (key === readFor.current) return;
    readFor.current = key;
    void read({ q: q || undefined, type: type || undefined }, false);
  }, [q, type]);

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
      <h3 className="mt-4 text-sm font-semibold text-ink">
        Records ({shown.total.toLocaleString('en-US')}
        {filtered ? ' found' : ''})
      </h3>
      <div className="mt-2 flex flex-wrap gap-2">
        <label className="flex-1 text-xs text-slate-700">
          <span className="sr-only">Search records by name</span>
          <input
            type="search"
            value={search}
            maxLength={253}
            placeholder="Search by name"
            onChange={(event) => setSearch(event.target.value)}
            className="w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm"
          />
        </label>
        <label className="text-xs text-slate-700">
          <span className="sr-only">Record type</span>
          <select
            value={type}
            onChange={(event) => setType(event.target.value)}
            className="rounded-md border border-slate-300 px-2 py-1.5 text-sm"
          >
            <option value="">All types</option>
            {INVENTORY_RECORD_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ScrollRegion label="Records" className="mt-2 max-h-80">
        <table className="w-full text-left text-xs" data-testid="record-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">TTL</th>
              <th scope="col">Data</th>
              <th scope="col">Sources</th>
              <th scope="col">First seen</th>
            </tr>
          </thead>
          <tbody className="font-mono">
            {shown.records.map((r) => (
              <tr key={`${r.name}-${r.type}-${r.data}`} className="align-top">
                <td className="break-all">{r.name}</td>
                <td>{r.type}</td>
                <td>{r.ttl}</td>
                <td className="break-all">{r.data}</td>
                <td className="font-sans">
                  {r.sources.map((s) => inventorySourceLabel(s as InventorySource)).join(', ')}
                </td>
                <td className="font-sans whitespace-nowrap">{formatDateTime(r.firstSeenAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {shown.records.length === 0 && (
          <p className="mt-2 text-sm text-slate-700">
            {filtered ? 'No record matches.' : 'No record in this inventory.'}
          </p>
        )}
      </ScrollRegion>
      <div className="mt-2 flex flex-wrap items-center gap-3 text-xs text-slate-700">
        <span data-testid="records-shown" aria-live="polite">
          Showing {shown.records.length.toLocaleString('en-US')} of {shown.total.toLocaleString('en-US')}
        </span>
        {shown.nextCursor && (
          <button
            type="button"
            className={BUTTON.small}
            disabled={reading}
            onClick={() =>
              void read(
                { cursor: shown.nextCursor ?? undefined, q: q || undefined, type: type || undefined },
                true,
              )
            }
          >
            Load more
          </button>
        )}
        {failed && <span role="alert">The records could not be read. Please try again.</span>}
      </div>
    </Dialog>
  );
}
