import { z } from 'zod';
import { PROOF_ANSWER_BYTES, request } from '../http/client.ts';
import { ConnectorError } from '../http/error.ts';

type Registration = 'registered' | 'unregistered' | 'unknown';

/** What a registry says of a registered domain that matters before it lapses. */
export interface RegistrationDetails {
  /** The `expiration` event's date (ISO 8601), when the registry gives one. */
  expires?: string;
  /** RDAP statuses, lower case without spaces: `pendingdelete`, `redemptionperiod`, … */
  statuses: string[];
}

/** A registry's answer is the registry's text: read to a proof check's bound, and only the fields used. */
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

  /**
   * One registry question through the connectors' client: a 429, a 5xx or no answer is asked twice
   * more, a Retry-After waited only within the deadline; a registered domain's answer past the
   * bound is still registered, its details unread.
   */
  private async ask(domain: string): Promise<Answer> {
    try {
      const answer = await request({
        provider: 'RDAP',
        url: `${this.base}/domain/${encodeURIComponent(domain)}`,
        headers: { accept: 'application/rdap+json, application/json' },
        timeoutMs: this.timeoutMs,
        maxBytes: PROOF_ANSWER_BYTES,
        retries: 2,
        retryBaseMs: 200,
        maxWaitMs: this.timeoutMs,
        // RDAP bootstrap services (rdap.org) answer with a redirect to the registry's own server.
        redirect: 'follow',
        signal: this.signal,
      });
      if (answer.status >= 200 && answer.status < 300)
        return { registration: 'registered', details: readDetails(answer.body) };
      return { registration: answer.status === 404 ? 'unregistered' : 'unknown' };
    } catch (error) {
      this.signal?.throwIfAborted();
      if (error instanceof ConnectorError && error.failure === 'too-large' && error.status === 200)
        return { registration: 'registered' };
      return { registration: 'unknown' };
    }
  }
}

interface Answer {
  registration: Registration;
  details?: RegistrationDetails;
}

function readDetails(body: Buffer): RegistrationDetails | undefined {
  let parsed: z.infer<typeof rdapSchema>;
  try {
    parsed = rdapSchema.parse(JSON.parse(body.toString('utf8')));
  } catch {
    return undefined;
  }
  const expiry = parsed.events?.find((e) => e.eventAction.toLowerCase() === 'expiration')?.eventDate;
  return {
    ...(expiry && !Number.isNaN(Date.parse(expiry)) ? { expires: new Date(expiry).toISOString() } : {}),
    statuses: (parsed.status ?? []).map((status) => status.toLowerCase().replace(/\s+/g, '')),
  };
}
