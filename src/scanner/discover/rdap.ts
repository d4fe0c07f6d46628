import { getDomain } from 'tldts';
import { fetch } from 'undici';
import { sleep } from '../util/limit.ts';

export type Registration = 'registered' | 'unregistered' | 'unknown';

/** The registrable domain (public suffix list, ICANN section) of a host, if it has one. */
export function registrableDomain(host: string): string | undefined {
  return getDomain(host, { allowPrivateDomains: false }) ?? undefined;
}

/**
 * Asks RDAP whether a registrable domain is registered. Only a 404 means "not registered"; any
 * other failure is `unknown`, never a finding.
 */
export class Rdap {
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly signal: AbortSignal | undefined;
  private readonly cache = new Map<string, Promise<Registration>>();

  constructor(base: string, timeoutMs: number, signal?: AbortSignal) {
    this.base = base.replace(/\/+$/, '');
    this.timeoutMs = timeoutMs;
    this.signal = signal;
  }

  lookup(domain: string, fresh = false): Promise<Registration> {
    const cached = fresh ? undefined : this.cache.get(domain);
    if (cached) return cached;
    const pending = this.ask(domain);
    this.cache.set(domain, pending);
    return pending;
  }

  private async ask(domain: string): Promise<Registration> {
    for (let attempt = 0; attempt < 3; attempt++) {
      this.signal?.throwIfAborted();
      const signals = [AbortSignal.timeout(this.timeoutMs)];
      if (this.signal) signals.push(this.signal);
      try {
        const response = await fetch(`${this.base}/domain/${encodeURIComponent(domain)}`, {
          headers: { accept: 'application/rdap+json, application/json' },
          signal: AbortSignal.any(signals),
        });
        await response.body?.cancel();
        if (response.status === 404) return 'unregistered';
        if (response.ok) return 'registered';
        if (response.status !== 429 && response.status < 500) return 'unknown';
      } catch {
        this.signal?.throwIfAborted();
      }
      await sleep(200 * 2 ** attempt, this.signal);
    }
    return 'unknown';
  }
}
