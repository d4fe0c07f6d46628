import { atom, map } from 'nanostores';
import type { DomainView, QuotaView } from '../../model/contract.ts';
import type { DomainService } from '../request/api.ts';
import { toRequestError } from '../request/errors.ts';
import { DASHBOARD_MESSAGES } from './messages.ts';

/** The domains screen's data: the list, the quota, and how loading went. */
interface DomainsState {
  domains: DomainView[];
  quota: QuotaView | null;
  loading: boolean;
  error: string | null;
  /** When the list was last read from the server. */
  loadedAt: string | null;
}

export const $domains = map<DomainsState>({
  domains: [],
  quota: null,
  loading: true,
  error: null,
  loadedAt: null,
});

/** Bumped whenever scans change (started, cancelled): the scans screen reads its lists again. */
export const $scansRevision = atom(0);

export function scansChanged(): void {
  $scansRevision.set($scansRevision.get() + 1);
}

/** Reads GET /api/domains into the store; a failure keeps what was shown and says so. */
export async function loadDomains(api: DomainService): Promise<void> {
  $domains.setKey('loading', $domains.get().loadedAt === null);
  try {
    const answer = await api.list();
    $domains.set({
      domains: answer.domains,
      quota: answer.quota,
      loading: false,
      error: null,
      loadedAt: new Date().toISOString(),
    });
  } catch (error) {
    console.warn(DASHBOARD_MESSAGES.loadFailed, toRequestError(error).message);
    $domains.set({ ...$domains.get(), loading: false, error: DASHBOARD_MESSAGES.loadFailed });
  }
}

/** Puts one domain's new server view in place (or first, when it is new). */
export function upsertDomain(domain: DomainView): void {
  const state = $domains.get();
  const exists = state.domains.some((d) => d.id === domain.id);
  const domains = exists
    ? state.domains.map((d) => (d.id === domain.id ? domain : d))
    : [domain, ...state.domains];
  const quota =
    state.quota && !exists ? { ...state.quota, currentDomains: state.quota.currentDomains + 1 } : state.quota;
  $domains.set({ ...state, domains, quota });
}

/** Drops a domain the server has deleted, and counts it out of the quota. */
export function dropDomain(id: string): void {
  const state = $domains.get();
  if (!state.domains.some((d) => d.id === id)) return;
  $domains.set({
    ...state,
    domains: state.domains.filter((d) => d.id !== id),
    quota: state.quota
      ? { ...state.quota, currentDomains: Math.max(0, state.quota.currentDomains - 1) }
      : null,
  });
}

/** Forgets what the stores hold (another workspace became current): screens read theirs again. */
export function resetDashboardData(): void {
  $domains.set({ domains: [], quota: null, loading: true, error: null, loadedAt: null });
  scansChanged();
}
