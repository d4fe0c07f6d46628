import type { InventorySummary } from '../../model/contract.ts';
import { inventorySourceLabel } from './dns-providers.ts';
import { formatAge } from './format.ts';

/**
 * Where a domain's inventory comes from, in a line for its card: '312 records from Cloudflare,
 * read 4m ago' or '12 records from a zone file uploaded 2h ago'; null when it has none.
 */
export function inventoryLine(inventory: InventorySummary | null, now: number) {
  if (!inventory) return null;
  const count = inventory.records;
  const records = `${count.toLocaleString('en-US')} ${count === 1 ? 'record' : 'records'}`;
  const age = formatAge(inventory.readAt, now);
  const when = age === 'Just now' ? 'just now' : age;
  return inventory.source === 'zone-file'
    ? `${records} from ${inventorySourceLabel('zone-file')} uploaded ${when}`
    : `${records} from ${inventorySourceLabel(inventory.source)}, read ${when}`;
}
