import type { ScanErrorView } from './contract.ts';

/**
 * How every report says a scan's error: "Could not check www.example.com: the server kept sending
 * after 256 KB" for a name's check, the message alone for the scan's own (a CT log that failed).
 */
export function scanErrorSentence(error: Pick<ScanErrorView, 'subdomain' | 'message'>): string {
  return error.subdomain ? `Could not check ${error.subdomain}: ${error.message}` : error.message;
}

/** The names a scan could not check, each once, in the order their errors came. */
export function uncheckedNames(errors: readonly ScanErrorView[], checked: readonly string[]): string[] {
  const done = new Set(checked);
  return [...new Set(errors.flatMap((e) => (e.subdomain && !done.has(e.subdomain) ? [e.subdomain] : [])))];
}
