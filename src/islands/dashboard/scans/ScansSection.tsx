import { useEffect, useState } from 'react';
import { downloadJson, downloadText } from '../../../lib/dashboard/download.ts';
import {
  linkedFinding,
  linkedFindingKey,
  type MissingFinding,
  missingFinding,
} from '../../../lib/dashboard/finding-link.ts';
import { hasMoreScans } from '../../../lib/dashboard/paging.ts';
import { exportFileName } from '../../../lib/dashboard/report.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { scansChanged } from '../../../lib/dashboard/store.ts';
import { $currentWorkspace } from '../../../lib/dashboard/workspaces.ts';
import { RequestError } from '../../../lib/request/errors.ts';
import { toast } from '../../../lib/toast.ts';
import type { FindingRecord, ScanView } from '../../../model/contract.ts';
import { findingsCsv, findingsCsvFileName } from '../../../model/findings-csv.ts';
import { countOf } from '../../../model/messages.ts';
import { EmptyState } from '../EmptyState.tsx';
import { BUTTON } from '../shared/buttons.ts';
import { FreeRuleNotice } from '../shared/FreeRuleNotice.tsx';
import { LoadError } from '../shared/LoadError.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { READ_ONLY_HINT, useCan } from '../shared/use-can.ts';
import { useDebounced } from '../shared/use-debounced.ts';
import { useScanStats } from '../shared/use-scan-stats.ts';
import { useWebmailOnFree } from '../shared/use-webmail-on-free.ts';
import { FindingDetailsDialog } from './FindingDetailsDialog.tsx';
import { NewScanDialog } from './NewScanDialog.tsx';
import { ScanCard } from './ScanCard.tsx';
import { ScanDetailsDialog } from './ScanDetailsDialog.tsx';
import { type ScanFilter, ScanFilters } from './ScanFilters.tsx';
import { SummaryCards } from './SummaryCards.tsx';
import { useAcceptedFindings } from './use-accepted-findings.ts';
import { useScanList } from './use-scan-list.ts';

const SEARCH_DEBOUNCE_MS = 300;

/** The scans screen ('Security Scans'), all from the scan service. */
export function ScansSection({ onGoToDomains }: { onGoToDomains: () => void }) {
  const [filter, setFilter] = useState<ScanFilter>('all');
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useScanList(filter === 'all' ? null : filter, query);
  const accepted = useAcceptedFindings();
  const stats = useScanStats();
  const mayScan = useCan('scans.start');
  // Free leaves a webmail account no domain to scan: the rule, first, instead of a button that cannot work.
  const webmailOnFree = useWebmailOnFree().applies;
  const [details, setDetails] = useState<ScanView | null>(null);
  const [finding, setFinding] = useState<FindingRecord | null>(null);
  // Said on the screen, not in a toast that a later one replaces: the link was followed on purpose.
  const [missing, setMissing] = useState<MissingFinding | null>(null);
  const [newScan, setNewScan] = useState(false);
  const [exporting, setExporting] = useState(false);

  // Alert e-mails and webhooks link to `?section=scans&scan=<id>`: that scan opens in its details.
  useEffect(() => {
    const linked = new URLSearchParams(window.location.search).get('scan');
    if (!linked) return;
    let live = true;
    dashboardApi()
      .scans.get(linked)
      .then((scan) => live && setDetails(scan))
      .catch((error) => {
        // The link came from an e-mail or a webhook: say why nothing opened, rather than show the
        // list as if that had been asked for.
        if (!live) return;
        toast({
          title: 'Scan not opened',
          description: error instanceof Error ? error.message : 'The linked scan could not be read.',
          variant: 'destructive',
        });
      });
    return () => {
      live = false;
    };
  }, []);

  // Tickets, pages and Linear attachments link to `?section=scans&finding=<key>`: that finding opens.
  useEffect(() => {
    const key = linkedFindingKey(window.location.search);
    if (!key) return;
    let live = true;
    dashboardApi()
      .findings.byKey(key)
      .then(({ findings }) => {
        if (!live) return;
        const outcome = linkedFinding(key, findings, $currentWorkspace.get()?.name);
        if ('record' in outcome) setFinding(outcome.record);
        else setMissing(outcome);
      })
      .catch((error) => {
        if (!live) return;
        // A key no finding could have (mistyped, cut short) is not found either, rather than invalid.
        if (error instanceof RequestError && error.statusCode === 400) {
          setMissing(missingFinding(key, $currentWorkspace.get()?.name));
          return;
        }
        toast({
          title: 'Finding not opened',
          description: error instanceof Error ? error.message : 'The linked finding could not be read.',
          variant: 'destructive',
        });
      });
    return () => {
      live = false;
    };
  }, []);

  const narrowed = filter !== 'all' || search.trim() !== '';
  const exportAll = async () => {
    setExporting(true);
    try {
      const answer = await dashboardApi().scans.exportAll();
      downloadJson(exportFileName(answer.exportedAt), answer);
      toast({
        title: 'Scans Exported',
        description: `${countOf(answer.scans.length, 'scan')} saved as one JSON file.`,
      });
    } catch (error) {
      toast({
        title: 'Export failed',
        description: error instanceof Error ? error.message : 'The scans could not be exported.',
        variant: 'destructive',
      });
    } finally {
      setExporting(false);
    }
  };
  const exportOpenFindings = async () => {
    setExporting(true);
    try {
      const { findings } = await dashboardApi().findings.unresolved();
      const name = findingsCsvFileName(new Date());
      downloadText(name, findingsCsv(findings), 'text/csv');
      toast({
        title: 'Findings Exported',
        description: `${findings.length} open findings saved as ${name}.`,
      });
    } catch (error) {
      toast({
        title: 'Export failed',
        description: error instanceof Error ? error.message : 'The findings could not be exported.',
        variant: 'destructive',
      });
    } finally {
      setExporting(false);
    }
  };
  const showAll = () => {
    setSearch('');
    setFilter('all');
  };

  return (
    <section aria-labelledby="scans-heading">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 id="scans-heading" className="text-2xl font-bold text-ink">
            Security Scans
          </h1>
          <p className="mt-1 text-slate-600">Every scan of your domains, with its findings explained.</p>
        </div>
        <div className="flex gap-2">
          <button type="button" className={BUTTON.secondary} onClick={exportAll} disabled={exporting}>
            {exporting ? 'Exporting...' : 'Export All'}
          </button>
          <button
            type="button"
            className={BUTTON.secondary}
            onClick={exportOpenFindings}
            disabled={exporting}
          >
            Open Findings (CSV)
          </button>
          {mayScan && (
            <button type="button" className={BUTTON.primary} onClick={() => setNewScan(true)}>
              New Scan
            </button>
          )}
        </div>
      </div>

      {missing && (
        <div
          role="alert"
          className="mt-4 flex flex-wrap items-start justify-between gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="finding-link-missing"
        >
          <div className="min-w-0 wrap-anywhere">
            <p className="font-semibold">{missing.title}</p>
            <p>{missing.description}</p>
          </div>
          <button type="button" className={BUTTON.small} onClick={() => setMissing(null)}>
            Dismiss
          </button>
        </div>
      )}
      <SummaryCards stats={stats} />
      <ScanFilters filter={filter} onFilter={setFilter} search={search} onSearch={setSearch} stats={stats} />
      {list.error && <LoadError message={list.error} onRetry={scansChanged} />}

      {list.loading ? (
        <Spinner label="Loading scans" />
      ) : list.error && list.scans.length === 0 ? null : list.scans.length === 0 ? (
        narrowed ? (
          <EmptyState title="No matching scans">
            <p>No scan matches this search or filter.</p>
            <div className="mt-4 flex justify-center gap-2">
              <button type="button" className={BUTTON.secondary} onClick={() => setSearch('')}>
                Clear Search
              </button>
              <button type="button" className={BUTTON.secondary} onClick={showAll}>
                Show All Scans
              </button>
            </div>
          </EmptyState>
        ) : (
          <EmptyState title="No scans yet">
            <p>Scan a domain you have verified and its findings appear here, explained.</p>
            {webmailOnFree ? (
              <div className="mt-4">
                <FreeRuleNotice screen="scans" />
              </div>
            ) : mayScan ? (
              <button type="button" className={`${BUTTON.primary} mt-4`} onClick={() => setNewScan(true)}>
                Run First Scan
              </button>
            ) : (
              <p className="mt-4">{READ_ONLY_HINT}</p>
            )}
          </EmptyState>
        )
      ) : (
        <>
          <ul className="mt-6 space-y-3" aria-label="Scans">
            {list.scans.map((scan) => (
              <ScanCard
                key={scan.scan_id}
                scan={scan}
                onUpdate={list.replace}
                onViewDetails={setDetails}
                accepted={accepted}
              />
            ))}
          </ul>
          {hasMoreScans(list.scans.length, list.total) && (
            <div className="mt-4 flex justify-center">
              <button
                type="button"
                className={BUTTON.secondary}
                onClick={list.loadMore}
                disabled={list.loadingMore}
              >
                {list.loadingMore ? 'Loading...' : 'Load More Scans'}
              </button>
            </div>
          )}
        </>
      )}

      {details && <ScanDetailsDialog scan={details} onClose={() => setDetails(null)} />}
      {finding && <FindingDetailsDialog record={finding} onClose={() => setFinding(null)} />}
      {newScan && <NewScanDialog onClose={() => setNewScan(false)} onGoToDomains={onGoToDomains} />}
    </section>
  );
}
