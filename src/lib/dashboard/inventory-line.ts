import type { InventorySummary } from '../../model/contract.ts';
import { inventorySourceLabel } from './dns-providers.ts';
import { formatAge } from './format.ts';

type SourceCount = InventorySummary['sources'][number];

/** One source as itself: '312 records from Cloudflare, read 4m ago', '5 records from a zone file uploaded 2h ago'. */
function sourceLine(source: SourceCount, now: number): string {
  const count = source.records;
  const records = `${count.toLocaleString('en-US')} ${count === 1 ? 'record' : 'records'}`;
  const age = formatAge(source.readAt, now);
  const when = age === 'Just now' ? 'just now' : age;
  return source.source === 'zone-file'
    ? `${records} from ${inventorySourceLabel('zone-file')} uploaded ${when}`
    : `${records} from ${inventorySourceLabel(source.source)}, read ${when}`;
}

/**
 * Where a domain's inventory comes from, in a line for its card, each source counted as itself
 * (a zone file uploaded beside a connected zone says its own records, then the zone's); null when
 * it has none.
 */
export function inventoryLine(inventory: InventorySummary | null, now: number) {
  if (!inventory) return null;
  const sources = inventory.sources.length ? inventory.sources : [inventory];
  return sources.map((source) => sourceLine(source, now)).join('; ');
}
