import { RELOAD_AFTER_SCAN_MS } from '../../model/constants.ts';
import type { StartScanOptions } from '../request/api.ts';
import { toast } from '../toast.ts';
import { DASHBOARD_MESSAGES, scanErrorMessage, scanRefusalTitle, verifyErrorMessage } from './messages.ts';
import { dashboardApi } from './services.ts';
import { loadDomains, scansChanged, upsertDomain } from './store.ts';

let triggering = false;

/** Reads the scans and the domains again: at once, and 2 s later. */
function reloadAfterScan(): void {
  scansChanged();
  setTimeout(() => {
    scansChanged();
    void loadDomains(dashboardApi().domains);
  }, RELOAD_AFTER_SCAN_MS);
}

type StartOutcome =
  | { started: true; scanId: string }
  /** `title` is set when the server refused the scan on purpose, rather than failing to start it. */
  | { started: false; error: string | null; title?: string };

/**
 * Starts a scan and says so: 'Scan Started' / 'New security scan started for {domain}', or
 * 'Scan Failed' with the reason (a refusal, such as the day's quota, under its own title). A new scan cannot start while one is being triggered:
 * such a click answers `error: null`.
 */
export async function startScan(domain: string, options: StartScanOptions): Promise<StartOutcome> {
  if (triggering) return { started: false, error: null };
  triggering = true;
  try {
    const answer = await dashboardApi().scans.start(domain, options);
    toast({ title: DASHBOARD_MESSAGES.scanStarted, description: DASHBOARD_MESSAGES.scanStartedFor(domain) });
    reloadAfterScan();
    return { started: true, scanId: answer.scan_id };
  } catch (error) {
    const message = scanErrorMessage(error);
    const title = scanRefusalTitle(error);
    toast({
      title: title ?? DASHBOARD_MESSAGES.scanFailedTitle,
      description: message,
      variant: 'destructive',
    });
    return { started: false, error: message, title };
  } finally {
    triggering = false;
  }
}

/** Cancels a pending or running scan; the lists are read again. */
export async function cancelScan(scanId: string): Promise<boolean> {
  try {
    await dashboardApi().scans.cancel(scanId);
    scansChanged();
    void loadDomains(dashboardApi().domains);
    return true;
  } catch (error) {
    toast({ title: 'Cancel failed', description: scanErrorMessage(error), variant: 'destructive' });
    return false;
  }
}

interface VerifyOutcome {
  verified: boolean;
  /** Why the record did not prove ownership (the server's words), when it did not. */
  error: string | null;
  /** Set when the check itself could not run: the service, not the DNS record, failed. */
  serviceError: string | null;
}

/**
 * Keeps a domain beyond the plan's number within it; another domain takes its place beyond, so the
 * whole list is read again.
 */
export async function keepDomain(domainId: string): Promise<boolean> {
  try {
    const api = dashboardApi().domains;
    const answer = await api.keep(domainId);
    await loadDomains(api);
    toast({
      title: 'Domain Kept',
      description: `${answer.domain.domain} is scanned again within your plan.`,
    });
    return true;
  } catch (error) {
    toast({
      title: 'Could Not Keep the Domain',
      description: scanErrorMessage(error),
      variant: 'destructive',
    });
    return false;
  }
}

/** Runs the TXT check on the server and puts the domain's new view in the store. */
export async function verifyDomain(domainId: string): Promise<VerifyOutcome> {
  try {
    const answer = await dashboardApi().domains.verify(domainId);
    upsertDomain(answer.domain);
    if (answer.verified) {
      toast({ title: 'Domain Verified', description: `${answer.domain.domain} is now monitored.` });
      return { verified: true, error: null, serviceError: null };
    }
    const reason = answer.error ?? answer.domain.error ?? DASHBOARD_MESSAGES.verifyFailed;
    toast({ title: 'Verification Failed', description: reason, variant: 'destructive' });
    return { verified: false, error: reason, serviceError: null };
  } catch (error) {
    const message = verifyErrorMessage(error);
    toast({ title: 'Verification Failed', description: message, variant: 'destructive' });
    return { verified: false, error: null, serviceError: message };
  }
}
