import type { ScanStats, ScanStatus } from '../../../model/contract.ts';

export type ScanFilter = 'all' | Extract<ScanStatus, 'completed' | 'running' | 'failed'>;

const FILTERS: { id: ScanFilter; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'completed', label: 'Completed' },
  { id: 'running', label: 'Running' },
  { id: 'failed', label: 'Failed' },
];

interface ScanFiltersProps {
  filter: ScanFilter;
  onFilter: (filter: ScanFilter) => void;
  search: string;
  onSearch: (text: string) => void;
  stats: ScanStats | null;
}

/** Search by domain or scan id, and the All / Completed / Running / Failed buttons with their counts. */
export function ScanFilters({ filter, onFilter, search, onSearch, stats }: ScanFiltersProps) {
  const count = (id: ScanFilter) => (stats ? (id === 'all' ? stats.total : stats.by_status[id]) : null);
  return (
    <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="sm:w-72">
        <label htmlFor="scan-search" className="sr-only">
          Search scans by domain or scan ID
        </label>
        <input
          id="scan-search"
          type="search"
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          placeholder="Search by domain or scan ID..."
          className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
        />
      </div>
      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">Filter scans by status</legend>
        {FILTERS.map((f) => {
          const n = count(f.id);
          return (
            <button
              key={f.id}
              type="button"
              aria-pressed={filter === f.id}
              onClick={() => onFilter(f.id)}
              className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100 aria-pressed:border-brand-600 aria-pressed:bg-brand-600 aria-pressed:text-white"
            >
              {f.label}
              {n !== null && ` (${n})`}
            </button>
          );
        })}
      </fieldset>
    </div>
  );
}
