import { getDomain } from 'tldts';
import { fetch } from 'undici';
import { z } from 'zod';
import { sleep } from '../util/limit.ts';

type Registration = 'registered' | 'unregistered' | 'unknown';

/** The registrable domain (public suffix list, ICANN section) of a host, if it has one. */
export function registrableDomain(host: string): string | undefined {
  return getDomain(host, { allowPrivateDomains: false }) ?? undefined;
}

/** What a registry says of a registered domain that matters before it lapses. */
export interface RegistrationDetails {
  /** The `expiration` event's date (ISO 8601), when the registry gives one. */
  expires?: string;
  /** RDAP statuses, lower case without spaces: `pendingdelete`, `redemptionperiod`, … */
  statuses: string[];
}

/** A registry's answer is the registry's text: read capped, and only the fields used. */
const MAX_RDAP_BYTES = 64 * 1024;
const rdapSchema = z
  .object({
    status: z.array(z.string()).optional(),
    events: z.array(z.object({ eventAction: z.string(), eventDate: z.string() }).loose()).optional(),
  })
  .loose();

/**
 * Asks RDAP whether a registrable domain is registered. Only a 404 means "not registered"; any
 * other failure is `unknown`, never a finding. A registered domain's expiry date and statuses are
 * kept from the same answer.
 */
export class Rdap {
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly signal: AbortSignal | undefined;
  private readonly cache = new Map<string, Promise<Answer>>();

  constructor(base: string, timeoutMs: number, signal?: AbortSignal) {
    this.base = base.replace(/\/+$/, '');
    this.timeoutMs = timeoutMs;
    this.signal = signal;
  }

  async lookup(domain: string, fresh = false): Promise<Registration> {
    return (await this.answer(domain, fresh)).registration;
  }

  /** Expiry and statuses of a registered domain; undefined when it is not registered or RDAP cannot say. */
  async details(domain: string, fresh = false): Promise<RegistrationDetails | undefined> {
    return (await this.answer(domain, fresh)).details;
  }

  private answer(domain: string, fresh: boolean): Promise<Answer> {
    const cached = fresh ? undefined : this.cache.get(domain);
    if (cached) return cached;
    const pending = this.ask(domain);
    this.cache.set(domain, pending);
    return pending;
  }

  private async ask(domain: string): Promise<Answer> {
    for (let attempt = 0; attempt < 3; attempt++) {
      this.signal?.throwIfAborted();
      const signals = [AbortSignal.timeout(this.timeoutMs)];
      if (this.signal) signals.push(this.signal);
      try {
        const response = await fetch(`${this.base}/domain/${encodeURIComponent(domain)}`, {
          headers: { accept: 'application/rdap+json, application/json' },
          signal: AbortSignal.any(signals),
        });
        if (response.ok) return { registration: 'registered', details: await readDetails(response) };
        await response.body?.cancel();
        if (response.status === 404) return { registration: 'unregistered' };
        if (response.status !== 429 && response.status < 500) return { registration: 'unknown' };
      } catch {
        this.signal?.throwIfAborted();
      }
      await sleep(200 * 2 ** attempt, this.signal);
    }
    return { registration: 'unknown' };
  }
}

interface Answer {
  registration: Registration;
  details?: RegistrationDetails;
}

async function readDetails(
  response: Awaited<ReturnType<typeof fetch>>,
): Promise<RegistrationDetails | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    chunks.push(Buffer.from(chunk));
    size += chunk.byteLength;
    if (size > MAX_RDAP_BYTES) return undefined;
  }
  let parsed: z.infer<typeof rdapSchema>;
  try {
    parsed = rdapSchema.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
  } catch {
    return undefined;
  }
  const expiry = parsed.events?.find((e) => e.eventAction.toLowerCase() === 'expiration')?.eventDate;
  return {
    ...(expiry && !Number.isNaN(Date.parse(expiry)) ? { expires: new Date(expiry).toISOString() } : {}),
    statuses: (parsed.status ?? []).map((status) => status.toLowerCase().replace(/\s+/g, '')),
  };
}
