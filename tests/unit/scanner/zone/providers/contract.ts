import { expect, it } from 'vitest';
import { type ProviderCallOptions, ProviderError } from '../../../../../src/connectors/dns/provider.ts';
import type { DnsProvider } from '../../../../../src/scanner/zone/providers/provider.ts';
import type { ZoneRecord } from '../../../../../src/scanner/zone/record.ts';
import type { FakeProvider } from '../../../../fixtures/dns-providers/fake-server.ts';

export const ZONE = 'example.com';

/** Records every provider can hold, in the form the clients must give back. */
export const SAMPLE: ZoneRecord[] = [
  { name: ZONE, type: 'NS', ttl: 3600, data: 'ns1.provider.net' },
  { name: ZONE, type: 'MX', ttl: 3600, data: '10 mail.provider.net' },
  { name: ZONE, type: 'TXT', ttl: 300, data: 'v=spf1 include:_spf.gone.example ~all' },
  { name: ZONE, type: 'CAA', ttl: 300, data: '0 issue "letsencrypt.org"' },
  { name: `www.${ZONE}`, type: 'A', ttl: 300, data: '192.0.2.1' },
  { name: `www.${ZONE}`, type: 'AAAA', ttl: 300, data: '2001:db8::1' },
  { name: `campaign-2019.${ZONE}`, type: 'CNAME', ttl: 300, data: 'dw-campaign.azurewebsites.net' },
  { name: `_sip._tcp.${ZONE}`, type: 'SRV', ttl: 300, data: '10 5 5060 sip.provider.net' },
  { name: `*.dev.${ZONE}`, type: 'CNAME', ttl: 60, data: 'dev.herokudns.example' },
];

export interface ProviderCase<C> {
  fake: () => FakeProvider;
  provider: DnsProvider<C>;
  credentials: C;
  badCredentials: C;
  /** The provider's own words for the bad credential, as the error must carry them. */
  refusal: RegExp;
  /** The fake's page size, and the page size the client asks for when the API lets it choose. */
  pageSize: number;
  /** Environment of the calls (the operator's settings, such as a token endpoint). */
  env?: NodeJS.ProcessEnv;
  /** Paths that are not reads of the DNS API but still allowed (an OAuth token request). */
  allowedPosts?: RegExp;
}

const sortKey = (r: ZoneRecord) => `${r.name} ${r.type} ${r.data}`;
const sorted = (records: ZoneRecord[]) => [...records].sort((a, b) => sortKey(a).localeCompare(sortKey(b)));

async function collect(records: AsyncIterable<ZoneRecord>) {
  const out: ZoneRecord[] = [];
  for await (const record of records) out.push(record);
  return out;
}

/** The behaviour every provider client must show against its fake. */
export function providerContract<C>(get: () => ProviderCase<C>) {
  const options = (): ProviderCallOptions => ({
    baseUrl: get().fake().url,
    retryBaseMs: 10,
    maxRetries: 3,
    timeoutMs: 2000,
    pageSize: get().pageSize,
    env: get().env ?? {},
  });

  it('reads every record of a zone over several pages', async () => {
    const { fake, provider, credentials } = get();
    const before = fake().requests.length;
    const records = await collect(provider.readZone(credentials, ZONE, options()));
    expect(sorted(records)).toEqual(sorted(SAMPLE));
    expect(fake().requests.length - before).toBeGreaterThanOrEqual(Math.ceil(SAMPLE.length / get().pageSize));
  });

  it('lists the zones the credential can read', async () => {
    const { provider, credentials } = get();
    expect((await provider.listZones(credentials, options())).sort()).toEqual(['example.com', 'other.test']);
  });

  it('sees a record added at the provider on the next read', async () => {
    const { fake, provider, credentials } = get();
    const added: ZoneRecord = {
      name: `fresh.${ZONE}`,
      type: 'CNAME',
      ttl: 300,
      data: 'fresh-app.herokuapp.com',
    };
    fake().addRecord(ZONE, added);
    try {
      expect(await collect(provider.readZone(credentials, ZONE, options()))).toContainEqual(added);
    } finally {
      fake().zones.get(ZONE)?.pop();
    }
  });

  it('a refused credential is an error in a plain sentence, the provider words its detail, without the credential', async () => {
    const { provider, badCredentials, refusal } = get();
    const error = await provider.listZones(badCredentials, options()).catch((e: Error) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).failure).toBe('credentials');
    expect((error as Error).message).toBe(`${provider.label} did not accept the credential`);
    expect((error as ProviderError).detail).toMatch(refusal);
    for (const value of Object.values(badCredentials as object))
      expect((error as ProviderError).full).not.toContain(String(value).slice(0, 24));
  });

  it('waits what Retry-After says on a 429, then reads on', async () => {
    const { fake, provider, credentials } = get();
    fake().faults.push({ status: 429, retryAfter: '1' });
    const started = Date.now();
    const records = await collect(provider.readZone(credentials, ZONE, options()));
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(records).toHaveLength(SAMPLE.length);
  });

  it('never waits out a Retry-After of an hour', async () => {
    const { fake, provider, credentials } = get();
    fake().faults.push({ status: 429, retryAfter: '3600' });
    const started = Date.now();
    await collect(provider.readZone(credentials, ZONE, options())).catch((e: Error) => {
      expect(e).toBeInstanceOf(ProviderError);
      expect((e as ProviderError).failure).toBe('unavailable');
    });
    fake().faults.length = 0;
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('retries 5xx answers with backoff, and gives up after a bound', async () => {
    const { fake, provider, credentials } = get();
    fake().faults.push({ status: 503 }, { status: 500 });
    expect(await collect(provider.readZone(credentials, ZONE, options()))).toHaveLength(SAMPLE.length);
    const before = fake().requests.length;
    for (let i = 0; i < 8; i++) fake().faults.push({ status: 502 });
    const error = await collect(provider.readZone(credentials, ZONE, { ...options(), maxRetries: 2 })).catch(
      (e: Error) => e,
    );
    fake().faults.length = 0;
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).failure).toBe('unavailable');
    expect(fake().requests.length - before).toBe(3);
  });

  it('a call that gets no answer times out, is retried, and fails as unavailable', async () => {
    const { fake, provider, credentials } = get();
    for (let i = 0; i < 2; i++) fake().faults.push({ status: 0 });
    const started = Date.now();
    const error = await collect(
      provider.readZone(credentials, ZONE, { ...options(), timeoutMs: 300, maxRetries: 1 }),
    ).catch((e: Error) => e);
    fake().faults.length = 0;
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).failure).toBe('unavailable');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a malformed answer is a clear error, not a crash', async () => {
    const { fake, provider, credentials } = get();
    fake().faults.push({ status: 200, body: '{"unexpected": true' });
    const error = await collect(provider.readZone(credentials, ZONE, options())).catch((e: Error) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).failure).toBe('malformed');
  });

  it('an unknown zone is a not-found error', async () => {
    const { provider, credentials } = get();
    const error = await collect(provider.readZone(credentials, 'absent.test', options())).catch(
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).failure).toBe('not-found');
  });

  it('only ever sends reads', () => {
    const { fake, allowedPosts } = get();
    expect(fake().requests.length).toBeGreaterThan(10);
    const writes = fake().requests.filter(
      (r) => r.method !== 'GET' && !(r.method === 'POST' && allowedPosts?.test(r.path)),
    );
    expect(writes).toEqual([]);
  });
}

/** A listing whose next-page pointer does not move on must end in an error, not loop forever. */
export function pagingGuard<C>(get: () => ProviderCase<C>, path: RegExp, body: string, message: RegExp) {
  it('a page that points at itself as the next one is an error, not an endless loop', async () => {
    const { fake, provider, credentials } = get();
    fake().faults.push({ status: 200, body, path }, { status: 200, body, path });
    const error = await collect(
      provider.readZone(credentials, ZONE, { baseUrl: fake().url, env: get().env ?? {}, maxRetries: 0 }),
    ).catch((e: Error) => e);
    fake().faults.length = 0;
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).failure).toBe('malformed');
    expect((error as Error).message).toBe(`${provider.label} sent an answer DangleWatch cannot read`);
    expect((error as ProviderError).detail).toMatch(message);
  });
}
