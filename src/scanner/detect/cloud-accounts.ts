import { canonicalAddress } from '../../connectors/cloud/provider.ts';
import type { CloudAccountInventory, CloudInventory, CloudRange } from '../types.ts';

type Item = CloudAccountInventory['items'][number];
interface Sighting {
  account: CloudAccountInventory;
  item: Item;
  /** The account's last read saw it: held now. */
  held: boolean;
}

/**
 * What the connected accounts say of an address or a host: `held`, an account holds it now (ours:
 * no finding, nothing probed); `grace`, missing for less than the account's grace period (a release
 * or a move between two reads: nothing yet); `released`, held once and missing for longer; `foreign`,
 * an address in a connected cloud's ranges that none of its accounts ever held.
 */
export type CloudVerdict =
  | { verdict: 'held' }
  | { verdict: 'grace' }
  | { verdict: 'released'; account: CloudAccountInventory; item: Item }
  | { verdict: 'foreign'; cloud: string };

const HOUR = 3_600_000;

/** The connected accounts' memory, indexed for one scan: plain data in, verdicts out. */
export class CloudMemory {
  private readonly addresses = new Map<string, Sighting[]>();
  private readonly hosts = new Map<string, Sighting[]>();
  private readonly accounts: readonly CloudAccountInventory[];
  private readonly now: number;

  constructor(inventory: CloudInventory, now: Date) {
    this.accounts = inventory.accounts;
    this.now = now.getTime();
    for (const account of inventory.accounts) {
      const lastSync = Date.parse(account.lastSyncAt);
      for (const item of account.items) {
        const index = item.kind === 'address' ? this.addresses : this.hosts;
        const key = item.kind === 'address' ? canonicalAddress(item.value) : item.value.toLowerCase();
        const sighting = { account, item, held: Date.parse(item.lastSeenAt) >= lastSync };
        const list = index.get(key);
        if (list) list.push(sighting);
        else index.set(key, [sighting]);
      }
    }
  }

  get empty(): boolean {
    return this.accounts.length === 0;
  }

  /** The verdict on an address in `range`; undefined when no account of that cloud is connected. */
  address(address: string, range: CloudRange | undefined): CloudVerdict | undefined {
    const cloud = range?.cloud;
    if (!cloud || !range) return undefined;
    const connected = this.accounts.filter((a) => a.cloud === cloud);
    if (connected.length === 0) return undefined;
    const sightings = this.addresses.get(canonicalAddress(address));
    if (sightings) return this.judge(sightings);
    // Never seen: missing since the first read of the account read longest, for its grace period.
    const oldest = connected.reduce((a, b) =>
      Date.parse(a.firstSyncAt) <= Date.parse(b.firstSyncAt) ? a : b,
    );
    return this.now - Date.parse(oldest.firstSyncAt) > oldest.graceHours * HOUR
      ? { verdict: 'foreign', cloud: range.provider }
      : { verdict: 'grace' };
  }

  /** The verdict on a CNAME target; undefined when no connected account ever had that host. */
  host(host: string): CloudVerdict | undefined {
    const sightings = this.hosts.get(host.toLowerCase().replace(/\.$/, ''));
    return sightings ? this.judge(sightings) : undefined;
  }

  private judge(sightings: Sighting[]): CloudVerdict {
    if (sightings.some((s) => s.held)) return { verdict: 'held' };
    const last = sightings.reduce((a, b) =>
      Date.parse(a.item.lastSeenAt) >= Date.parse(b.item.lastSeenAt) ? a : b,
    );
    const missing = this.now - Date.parse(last.item.lastSeenAt);
    return missing > last.account.graceHours * HOUR
      ? { verdict: 'released', account: last.account, item: last.item }
      : { verdict: 'grace' };
  }
}

/** How evidence names an account: its label, and its ids where the read gave them. */
export const accountName = (account: CloudAccountInventory) =>
  account.accounts.length > 0 ? `"${account.label}" (${account.accounts.join(', ')})` : `"${account.label}"`;
