import type { DomainView } from '../../model/contract.ts';
import { toast } from '../toast.ts';
import { dashboardApi } from './services.ts';
import { scansChanged, upsertDomain } from './store.ts';

/** The message of a failed call: the server's words when it gave some. */
export function failureMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/**
 * Monitors a zone a connection reads: the server links it to its domain and reads its records; the
 * domain is verified, and its first scan queued, only when public DNS delegates it to that zone.
 */
export async function monitorZone(connectionId: string, zone: string): Promise<DomainView> {
  const { domain } = await dashboardApi().dnsConnections.monitor(connectionId, zone);
  upsertDomain(domain);
  scansChanged();
  toast(
    domain.status === 'verified'
      ? {
          title: 'Zone Monitored',
          description: `${zone} is verified (${domain.proof === 'zone' ? 'delegated to this zone' : 'by its TXT record'}); a scan of every record of the zone starts now.`,
        }
      : {
          title: 'Zone Linked',
          description: `${zone}'s records are kept, but the zone is not proof of ownership yet: ${domain.error ?? 'verify with the TXT record.'}`,
        },
  );
  return domain;
}
