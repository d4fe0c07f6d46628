import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { SCANS_PAGE_SIZE } from '../../../lib/dashboard/constants.ts';
import type { ScanStatus, ScanView } from '../../../lib/dashboard/contract.ts';
import { DASHBOARD_MESSAGES } from '../../../lib/dashboard/messages.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { $scansRevision } from '../../../lib/dashboard/store.ts';

export interface ScanListState {
  scans: ScanView[];
  total: number;
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
}

/**
 * The scans list, paged by the server: the first page for the current filter and search, then
 * 'Load More Scans' appends the next. Reads again whenever scans change ($scansRevision).
 */
export function useScanList(status: ScanStatus | null, query: string) {
  const revision = useStore($scansRevision);
  const [state, setState] = useState<ScanListState>({
    scans: [],
    total: 0,
    loading: true,
    loadingMore: false,
    error: null,
  });
  // Answers of an older filter or search arrive late sometimes; only the newest may land.
  const generation = useRef(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new revision is the signal to read again
  useEffect(() => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, loading: s.scans.length === 0 }));
    dashboardApi()
      .scans.list({ limit: SCANS_PAGE_SIZE, offset: 0, status: status ?? undefined, q: query })
      .then((answer) => {
        if (mine !== generation.current) return;
        setState({
          scans: answer.scans,
          total: answer.total,
          loading: false,
          loadingMore: false,
          error: null,
        });
      })
      .catch(() => {
        if (mine !== generation.current) return;
        // Spec 2 §8: a failed list fetch gives an empty list; the error says why.
        setState({
          scans: [],
          total: 0,
          loading: false,
          loadingMore: false,
          error: DASHBOARD_MESSAGES.loadFailed,
        });
      });
  }, [status, query, revision]);

  const shown = useRef(0);
  shown.current = state.scans.length;

  const loadMore = useCallback(() => {
    const mine = generation.current;
    setState((s) => ({ ...s, loadingMore: true }));
    dashboardApi()
      .scans.list({ limit: SCANS_PAGE_SIZE, offset: shown.current, status: status ?? undefined, q: query })
      .then((answer) => {
        if (mine !== generation.current) return;
        setState((now) => {
          const known = new Set(now.scans.map((scan) => scan.scan_id));
          return {
            ...now,
            scans: [...now.scans, ...answer.scans.filter((scan) => !known.has(scan.scan_id))],
            total: answer.total,
            loadingMore: false,
          };
        });
      })
      .catch(() => setState((now) => ({ ...now, loadingMore: false, error: DASHBOARD_MESSAGES.loadFailed })));
  }, [status, query]);

  /** Puts a scan's newer view in place (live progress, cancel). */
  const replace = useCallback((scan: ScanView) => {
    setState((s) => ({ ...s, scans: s.scans.map((old) => (old.scan_id === scan.scan_id ? scan : old)) }));
  }, []);

  return { ...state, loadMore, replace };
}
