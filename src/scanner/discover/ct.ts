import { fetch } from 'undici';
import { z } from 'zod';
import { inZone, isHostName } from '../dns/names.ts';
import { sleep } from '../util/limit.ts';

const crtShSchema = z.array(z.object({ name_value: z.string() }).loose());
const certSpotterSchema = z.array(
  z.object({ id: z.string(), dns_names: z.array(z.string()).default([]) }).loose(),
);

/**
 * Keeps in-zone host names only: CT answers hold wildcards (`*.x`, normalised to `x`), e-mail
 * addresses, names of other zones and many duplicates.
 */
export function normaliseCtNames(names: Iterable<string>, domain: string): string[] {
  const out = new Set<string>();
  for (const raw of names) {
    for (const piece of raw.split(/\s+/)) {
      const name = piece
        .trim()
        .toLowerCase()
        .replace(/\.$/, '')
        .replace(/^(\*\.)+/, '');
      if (isHostName(name) && inZone(name, domain)) out.add(name);
    }
  }
  return [...out];
}

/** crt.sh answers for the largest domains run to hundreds of MB; past this, give the names as a list. */
const MAX_CT_BYTES = 64 * 2 ** 20;

class TooLarge extends Error {}

async function readLimited(body: AsyncIterable<Uint8Array> | null, max: number) {
  if (!body) return 'null';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    // Leaving the loop by throwing cancels the stream.
    if (size > max) {
      throw new TooLarge(`answer larger than ${max / 2 ** 20} MB; give the names with --subdomains instead`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

interface CtOptions {
  timeoutMs: number;
  maxBytes?: number;
  signal?: AbortSignal;
  retries?: number;
  maxPages?: number;
}

async function getJson(url: string, options: CtOptions): Promise<unknown> {
  const retries = options.retries ?? 3;
  let lastError = '';
  for (let attempt = 0; attempt <= retries; attempt++) {
    options.signal?.throwIfAborted();
    const signals = [AbortSignal.timeout(options.timeoutMs)];
    if (options.signal) signals.push(options.signal);
    try {
      const response = await fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.any(signals),
      });
      if (response.ok) return JSON.parse(await readLimited(response.body, options.maxBytes ?? MAX_CT_BYTES));
      await response.body?.cancel();
      lastError = `HTTP ${response.status}`;
      // crt.sh answers 502/503 under load and 429 when rate limited: worth another try.
      if (response.status !== 429 && response.status < 500) break;
    } catch (error) {
      options.signal?.throwIfAborted();
      if (error instanceof TooLarge) throw error;
      lastError = error instanceof Error ? error.message : String(error);
    }
    if (attempt < retries) await sleep(250 * 2 ** attempt, options.signal);
  }
  throw new Error(`${new URL(url).origin}: ${lastError}`);
}

/** crt.sh JSON: `GET {base}/?q=%25.{domain}&output=json`. */
export async function fromCrtSh(base: string, domain: string, options: CtOptions) {
  const url = `${base.replace(/\/+$/, '')}/?q=%25.${encodeURIComponent(domain)}&output=json`;
  const rows = crtShSchema.parse(await getJson(url, options));
  return normaliseCtNames(
    rows.map((row) => row.name_value),
    domain,
  );
}

/** Cert Spotter: `GET {base}/v1/issuances?...`, paged with `after=<last id>` until an empty page. */
export async function fromCertSpotter(base: string, domain: string, options: CtOptions) {
  const names: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < (options.maxPages ?? 50); page++) {
    const url = new URL(`${base.replace(/\/+$/, '')}/v1/issuances`);
    url.searchParams.set('domain', domain);
    url.searchParams.set('include_subdomains', 'true');
    url.searchParams.set('expand', 'dns_names');
    if (after) url.searchParams.set('after', after);
    const rows = certSpotterSchema.parse(await getJson(url.href, options));
    if (rows.length === 0) break;
    for (const row of rows) names.push(...row.dns_names);
    after = rows.at(-1)?.id;
  }
  return normaliseCtNames(names, domain);
}
