import { z } from 'zod';
import { type HttpAnswer, jsonOf, request } from '../http/client.ts';
import { ConnectorError } from '../http/error.ts';
import { answerError } from '../http/json.ts';

const crtShSchema = z.array(z.object({ name_value: z.string() }).loose());
const certSpotterSchema = z.array(
  z.object({ id: z.string(), dns_names: z.array(z.string()).default([]) }).loose(),
);

/** crt.sh answers for the largest domains run to hundreds of MB; past this, the names are given as a list. */
export const CT_ANSWER_BYTES = 64 * 2 ** 20;

export interface CtOptions {
  timeoutMs: number;
  maxBytes?: number;
  signal?: AbortSignal;
  retries?: number;
  maxPages?: number;
}

/** One CT log search's JSON, through the connectors' client: crt.sh answers 502/503 under load and 429 when limiting. */
async function getJson<T>(
  provider: string,
  url: string,
  schema: z.ZodType<T>,
  options: CtOptions,
): Promise<T> {
  const answer: HttpAnswer = await request({
    provider,
    url,
    headers: { accept: 'application/json' },
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxBytes ?? CT_ANSWER_BYTES,
    retries: options.retries ?? 3,
    retryBaseMs: 250,
    maxWaitMs: options.timeoutMs,
    // The public services' own hosts: they move their API behind redirects at times.
    redirect: 'follow',
    signal: options.signal,
  });
  if (answer.status < 200 || answer.status >= 300) throw answerError(provider, answer, undefined);
  const parsed = schema.safeParse(jsonOf(answer));
  if (!parsed.success)
    throw new ConnectorError(provider, 'malformed', {
      detail: parsed.error.issues[0]?.message ?? 'not JSON',
    });
  return parsed.data;
}

/** crt.sh JSON: `GET {base}/?q=%25.{domain}&output=json`; each row's names, as crt.sh gives them. */
export async function crtShNames(base: string, domain: string, options: CtOptions): Promise<string[]> {
  const url = `${base.replace(/\/+$/, '')}/?q=%25.${encodeURIComponent(domain)}&output=json`;
  return (await getJson('crt.sh', url, crtShSchema, options)).map((row) => row.name_value);
}

/** Cert Spotter: `GET {base}/v1/issuances?...`, paged with `after=<last id>` until an empty page. */
export async function certSpotterNames(base: string, domain: string, options: CtOptions): Promise<string[]> {
  const names: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < (options.maxPages ?? 50); page++) {
    const url = new URL(`${base.replace(/\/+$/, '')}/v1/issuances`);
    url.searchParams.set('domain', domain);
    url.searchParams.set('include_subdomains', 'true');
    url.searchParams.set('expand', 'dns_names');
    if (after) url.searchParams.set('after', after);
    const rows = await getJson('Cert Spotter', url.href, certSpotterSchema, options);
    if (rows.length === 0) break;
    for (const row of rows) names.push(...row.dns_names);
    after = rows.at(-1)?.id;
  }
  return names;
}
