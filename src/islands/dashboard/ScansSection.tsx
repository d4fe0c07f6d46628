import { EmptyState } from './EmptyState.tsx';

/** The scans list arrives with the scan service; until then nobody has scans, and we say so. */
export function ScansSection() {
  return (
    <section aria-labelledby="scans-heading">
      <h1 id="scans-heading" className="text-2xl font-bold text-ink">
        Security Scans
      </h1>
      <p className="mt-1 text-slate-600">Every scan of your domains, with its findings explained.</p>
      <EmptyState title="No scans yet">
        Once you add a domain and prove you own it, its scans and their findings appear here.
      </EmptyState>
    </section>
  );
}
