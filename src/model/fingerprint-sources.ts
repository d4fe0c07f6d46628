import type { FingerprintSourceView } from './contract.ts';

/**
 * "Fingerprints: nuclei-templates 2026-11-27, BadDNS 2026-03-22, …": the sources a scan's verdicts
 * rest on, newest first, as the text report and the dashboard say it; null when the scan did not
 * record them (it ran before they were kept).
 */
export function fingerprintsLine(
  sources: readonly FingerprintSourceView[] | null | undefined,
): string | null {
  if (!sources?.length) return null;
  const newest = [...sources].sort((a, b) => b.date.localeCompare(a.date) || a.name.localeCompare(b.name));
  return `Fingerprints: ${newest.map((s) => `${s.name} ${s.date}`).join(', ')}`;
}
