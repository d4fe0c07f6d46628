import type { DomainView } from '../../model/contract.ts';
import { toast } from '../toast.ts';
import { dashboardApi } from './services.ts';
import { scansChanged, upsertDomain } from './store.ts';

/** The message of a failed call: the server's words when it gave some. */
export function failureMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/**
 * Monitors a zone a connection reads: the server makes it a verified domain, reads its records and
 * queues its first scan, so the Domains list and the Scans screen both change.
 */
export async function monitorZone(connectionId: string, zone: string): Promise<DomainView> {
  const { domain } = await dashboardApi().dnsConnections.monitor(connectionId, zone);
  upsertDomain(domain);
  scansChanged();
  toast({ title: 'Zone Monitored', description: `${zone} is verified; its first scan checks every record.` });
  return domain;
}
