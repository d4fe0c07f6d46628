import { setTimeout as sleep } from 'node:timers/promises';
import type { ScanView } from '../model/contract.ts';
import type { ProgressEvent } from '../scanner/types.ts';

/** Per request, like the browser's request layer for API calls. */
const REQUEST_TIMEOUT_MS = 30_000;
/**
 * Polls start every 2 s and slow down to one every 30 s: every poll counts against the plan's
 * hourly calls (Solo: 100), and a long scan should not use them up.
 */
const FIRST_POLL_MS = 2_000;
const LONGEST_POLL_MS = 30_000;

const ENDED = new Set(['completed', 'failed', 'cancelled']);
const PHASES = new Set(['discover', 'resolve', 'validate', 'done']);

export interface RemoteScanRequest {
  /** The server's origin, e.g. https://danglewatch.example.com. */
  server: string;
  /** A `dw_…` API key of the domain's owner. */
  key: string;
  domain: string;
  options: {
    skip_discovery?: boolean;
    use_certificate_transparency?: boolean;
    use_multi_stage_validation?: boolean;
  };
  signal: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  /** Where notes go (waiting for the rate limit); the report goes to stdout. */
  log: (line: string) => void;
}

/** A failure the server explained, in its own words (the one error body's `error` and `code`). */
export class RemoteScanError extends Error {}

async function call<T>(request: RemoteScanRequest, path: string, body?: unknown): Promise<T> {
  for (;;) {
    let res: Response;
    try {
      res = await fetch(new URL(path, request.server), {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${request.key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.any([request.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
      });
    } catch (error) {
      if (request.signal.aborted) throw error;
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
      throw new RemoteScanError(`cannot reach the server: ${cause}`);
    }
    const text = await res.text();
    if (res.status === 429) {
      const wait = Math.max(1, Number(res.headers.get('retry-after')) || 60);
      request.log(`rate limit of your plan reached; waiting ${wait} s as the server asks`);
      await sleep(wait * 1000, undefined, { signal: request.signal });
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new RemoteScanError(`${path} answered ${res.status} without JSON`);
    }
    if (!res.ok) {
      const { error, code } = parsed as { error?: string; code?: string };
      throw new RemoteScanError(`${res.status} ${error ?? res.statusText}${code ? ` (${code})` : ''}`);
    }
    return parsed as T;
  }
}

/**
 * `danglewatch scan <domain> --server URL --key dw_…`: starts the scan on a DangleWatch server
 * through the public API and waits for it; the completed scan is reported like a local one.
 */
export async function scanThroughServer(request: RemoteScanRequest): Promise<ScanView> {
  const started = await call<{ scan_id: string }>(request, '/api/v1/scans', {
    domain: request.domain,
    scanType: 'dangling-subdomains',
    ...request.options,
  });
  let scan: ScanView;
  let pause = FIRST_POLL_MS;
  for (;;) {
    scan = await call<ScanView>(request, `/api/v1/scans/${encodeURIComponent(started.scan_id)}`);
    if (ENDED.has(scan.status)) break;
    if (scan.progress && PHASES.has(scan.progress.stage)) {
      request.onProgress?.({
        phase: scan.progress.stage as ProgressEvent['phase'],
        done: scan.progress.checked,
        total: scan.progress.total,
      });
    }
    await sleep(pause, undefined, { signal: request.signal });
    pause = Math.min(LONGEST_POLL_MS, pause * 2);
  }
  request.onProgress?.({ phase: 'done', done: 0, total: 0 });
  if (scan.status !== 'completed') {
    throw new RemoteScanError(
      `the scan ${scan.status}${scan.error ? `: ${scan.error}` : ''} (scan ${scan.scan_id})`,
    );
  }
  return scan;
}
