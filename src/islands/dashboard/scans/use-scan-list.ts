import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { DASHBOARD_MESSAGES } from '../../../lib/dashboard/messages.ts';
import { appendPage } from '../../../lib/dashboard/paging.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { $scansRevision } from '../../../lib/dashboard/store.ts';
import { SCANS_MAX_PAGE_SIZE, SCANS_PAGE_SIZE } from '../../../model/constants.ts';
import type { ScanStatus, ScanView } from '../../../model/contract.ts';

interface ScanListState {
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
  const shown = useRef(0);
  shown.current = state.scans.length;
  const lastView = useRef('');

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new revision is the signal to read again
  useEffect(() => {
    const mine = ++generation.current;
    // A reload of the same view (scans changed) keeps the pages 'Load More Scans' had added.
    const view = `${status ?? ''}\n${query}`;
    const sameView = view === lastView.current;
    lastView.current = view;
    const limit = sameView
      ? Math.min(SCANS_MAX_PAGE_SIZE, Math.max(SCANS_PAGE_SIZE, shown.current))
      : SCANS_PAGE_SIZE;
    setState((s) => ({ ...s, loading: s.scans.length === 0 || !sameView }));
    dashboardApi()
      .scans.list({ limit, offset: 0, status: status ?? undefined, q: query })
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
        // A failed list fetch gives an empty list; the error says why.
        setState({
          scans: [],
          total: 0,
          loading: false,
          loadingMore: false,
          error: DASHBOARD_MESSAGES.loadFailed,
        });
      });
  }, [status, query, revision]);

  const loadMore = useCallback(() => {
    const mine = generation.current;
    setState((s) => ({ ...s, loadingMore: true }));
    dashboardApi()
      .scans.list({ limit: SCANS_PAGE_SIZE, offset: shown.current, status: status ?? undefined, q: query })
      .then((answer) => {
        if (mine !== generation.current) return;
        setState((now) => ({
          ...now,
          scans: appendPage(now.scans, answer.scans),
          total: answer.total,
          loadingMore: false,
        }));
      })
      .catch(() => setState((now) => ({ ...now, loadingMore: false, error: DASHBOARD_MESSAGES.loadFailed })));
  }, [status, query]);

  /** Puts a scan's newer view in place (live progress, cancel). */
  const replace = useCallback((scan: ScanView) => {
    setState((s) => ({ ...s, scans: s.scans.map((old) => (old.scan_id === scan.scan_id ? scan : old)) }));
  }, []);

  return { ...state, loadMore, replace };
}
