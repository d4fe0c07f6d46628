import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../../../src/connectors/proof/api.ts';
import { PROOF_CHECKS } from '../../../../src/model/proof.ts';
import { AZURE_FAMILIES, azureChecks } from '../../../../src/scanner/proof/azure.ts';
import type { CheckRun, Outcome, ProofCheck } from '../../../../src/scanner/proof/check.ts';
import { elasticBeanstalkCheck } from '../../../../src/scanner/proof/elastic-beanstalk.ts';
import { proofSettings } from '../../../../src/scanner/proof/settings.ts';
import { shopifyCheck } from '../../../../src/scanner/proof/shopify.ts';
import type { Detected } from '../../../../src/scanner/types.ts';
import { PROBE_AZURE, type ProofFixture, startProofServer } from '../../../fixtures/proof-server.ts';

let server: ProofFixture;
beforeAll(async () => {
  server = await startProofServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.names.clear();
  server.fallback = 'free';
  server.refuseToken = false;
  server.requests.length = 0;
});

const finding = (target: string, service = 'x'): Detected => ({
  subdomain: 'app.example.test',
  recordType: 'CNAME',
  target,
  service,
  status: 'claimable',
  risk: 'high',
  evidence: [],
  explanation: '',
  proofOfConcept: '',
  remediation: '',
});

/** The API checks never touch the scan's context (only the anonymous probes do). */
async function ask(check: ProofCheck, target: string, settings = server.settings(), service?: string) {
  const subject = check.subject(finding(target, service));
  if (!subject) throw new Error(`${check.id} does not apply to ${target}`);
  const run = { settings, signal: new AbortController().signal } as unknown as CheckRun;
  return check.ask(subject, run);
}

const answer = (outcome: Outcome) => ('answer' in outcome ? outcome.answer : outcome.unknown);

/** A name of each Azure family, and where its question must go. */
const AZURE_CASES = [
  [
    'azure-traffic-manager',
    'acme-tm.trafficmanager.net',
    'acme-tm',
    /^\/arm\/providers\/Microsoft\.Network\/checkTrafficManagerNameAvailability\?api-version=2022-04-01$/,
  ],
  [
    'azure-app-service',
    'acme-staging-4821.azurewebsites.net',
    'acme-staging-4821',
    /^\/arm\/subscriptions\/0{8}-0{4}-0{4}-0{4}-0{11}1\/providers\/Microsoft\.Web\/checknameavailability\?api-version=2024-04-01$/,
  ],
  [
    'azure-cloudapp',
    'acme-vm.westeurope.cloudapp.azure.com',
    'acme-vm',
    /^\/arm\/subscriptions\/[^/]+\/providers\/Microsoft\.Network\/locations\/westeurope\/CheckDnsNameAvailability\?domainNameLabel=acme-vm&api-version=2024-05-01$/,
  ],
  [
    'azure-storage',
    'acmefiles.blob.core.windows.net',
    'acmefiles',
    /^\/arm\/subscriptions\/[^/]+\/providers\/Microsoft\.Storage\/checkNameAvailability\?api-version=2023-05-01$/,
  ],
  [
    'azure-storage',
    'acmesite.z13.web.core.windows.net',
    'acmesite',
    /Microsoft\.Storage\/checkNameAvailability/,
  ],
  [
    'azure-cdn',
    'acme-cdn.azureedge.net',
    'acme-cdn',
    /^\/arm\/providers\/Microsoft\.Cdn\/checkNameAvailability\?api-version=2024-02-01$/,
  ],
  [
    'azure-front-door',
    'acme-door.azurefd.net',
    'acme-door',
    /^\/arm\/providers\/Microsoft\.Network\/checkFrontDoorNameAvailability\?api-version=2021-06-01$/,
  ],
] as const;

describe('Azure availability checks, against ARM JSON with its token endpoint', () => {
  it('has a check for each family, and each family a line of words', () => {
    expect(azureChecks.map((c) => c.id)).toEqual(AZURE_FAMILIES.map((f) => f.id));
    for (const check of azureChecks) expect(PROOF_CHECKS[check.id].provider).toBe('Azure');
  });

  it.each(AZURE_CASES)('%s: %s is free, then taken', async (id, target, name, path) => {
    const check = azureChecks.find((c) => c.id === id) as ProofCheck;
    const first = await ask(check, target);
    expect(first).toMatchObject({ answer: { name, free: true } });
    const request = server.requests.find((r) => r.path.startsWith('/arm/'));
    expect(request?.path).toMatch(path);
    expect(request?.authorization).toBe('Bearer fixture-arm-token');
    if (id !== 'azure-cloudapp') expect(request?.body.name).toBe(name);
    server.names.set(name, 'taken');
    const second = await ask(check, target);
    expect(second).toMatchObject({ answer: { name, free: false } });
  });

  it('signs in by client credentials once and keeps the token', async () => {
    const check = azureChecks[0] as ProofCheck;
    await ask(check, 'one.trafficmanager.net');
    await ask(check, 'two.trafficmanager.net');
    const tokens = server.requests.filter((r) => r.path.startsWith('/login/'));
    expect(tokens.length).toBeLessThanOrEqual(1);
  });

  it('a refused sign-in, a 500, garbage and a hang are "could not be checked", never an answer', async () => {
    const check = azureChecks.find((c) => c.id === 'azure-app-service') as ProofCheck;
    const settings = server.settings({ azureLoginUrl: `${server.url}/login`, timeoutMs: 300 });
    for (const behaviour of ['500', 'garbage', 'hang'] as const) {
      server.names.set('faulty', behaviour);
      const outcome = await ask(check, 'faulty.azurewebsites.net', settings);
      expect(outcome, behaviour).toHaveProperty('unknown');
    }
    expect(answer(await ask(check, 'faulty.azurewebsites.net', settings))).toMatch(/did not answer in time/);
    const stranger = server.settings({ azure: { ...PROBE_AZURE, clientId: 'not-our-client' } });
    expect(answer(await ask(check, 'acme.azurewebsites.net', stranger))).toBe(
      'Azure sign-in answered 401 invalid_client',
    );
  });

  it('without credentials it asks nothing', async () => {
    const check = azureChecks[0] as ProofCheck;
    const outcome = await ask(check, 'acme.trafficmanager.net', proofSettings());
    expect(outcome).toEqual({ unknown: 'no Azure probe application configured' });
    expect(server.requests).toEqual([]);
  });

  it('waits out a short Retry-After once, and gives up on a long one', async () => {
    const check = azureChecks.find((c) => c.id === 'azure-storage') as ProofCheck;
    server.names.set('busyacct', '429');
    server.retryAfter = 1;
    const started = Date.now();
    await expect(ask(check, 'busyacct.blob.core.windows.net')).rejects.toThrow(
      /throttling \(Retry-After 1 s\)/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(server.requests.filter((r) => r.path.includes('Storage')).length).toBe(2);
    server.requests.length = 0;
    server.retryAfter = 60;
    await expect(ask(check, 'busyacct.blob.core.windows.net')).rejects.toThrow(/Retry-After 60 s/);
    expect(server.requests.filter((r) => r.path.includes('Storage')).length).toBe(1);
  });
});

describe('Elastic Beanstalk CheckDNSAvailability, through the SDK against the Query API', () => {
  it('sends a SigV4-signed form for the region of the record and reads Available', async () => {
    const outcome = await ask(elasticBeanstalkCheck, 'acme-prod.eu-west-1.elasticbeanstalk.com');
    expect(outcome).toEqual({
      answer: {
        name: 'acme-prod',
        free: true,
        said: 'Available: true (acme-prod.eu-west-1.elasticbeanstalk.com)',
      },
    });
    const request = server.requests.at(-1);
    expect(request?.body).toMatchObject({
      Action: 'CheckDNSAvailability',
      Version: '2010-12-01',
      CNAMEPrefix: 'acme-prod',
    });
    expect(request?.authorization).toMatch(
      /Credential=AKIAPROBEFIXTURE0001\/\d{8}\/eu-west-1\/elasticbeanstalk\/aws4_request/,
    );
    server.names.set('acme-prod', 'taken');
    expect(await ask(elasticBeanstalkCheck, 'acme-prod.eu-west-1.elasticbeanstalk.com')).toMatchObject({
      answer: { free: false, said: 'Available: false' },
    });
  });

  it('a wrong key, a 500 and a hang are "could not be checked"; throttling stops the provider', async () => {
    const wrong = server.settings({ aws: { accessKeyId: 'AKIAWRONGKEY00000001', secretAccessKey: 'x' } });
    expect(answer(await ask(elasticBeanstalkCheck, 'a-b.us-east-1.elasticbeanstalk.com', wrong))).toMatch(
      /SignatureDoesNotMatch \(403\)/,
    );
    server.names.set('down', '500');
    expect(await ask(elasticBeanstalkCheck, 'down.us-east-1.elasticbeanstalk.com')).toHaveProperty('unknown');
    server.names.set('slow', 'hang');
    const quick = server.settings({ timeoutMs: 300 });
    expect(answer(await ask(elasticBeanstalkCheck, 'slow.us-east-1.elasticbeanstalk.com', quick))).toMatch(
      /in time/,
    );
    server.names.set('busy', '429');
    server.retryAfter = 30;
    await expect(ask(elasticBeanstalkCheck, 'busy.us-east-1.elasticbeanstalk.com')).rejects.toThrow(
      /AWS is throttling \(Retry-After 30 s\)/,
    );
  });

  it("waits out AWS's short throttling once, then gives up without failing", async () => {
    server.names.set('brief', '429');
    server.retryAfter = 1;
    await expect(ask(elasticBeanstalkCheck, 'brief.us-east-1.elasticbeanstalk.com')).rejects.toThrow(
      /AWS is throttling/,
    );
    expect(server.requests.filter((r) => r.body.CNAMEPrefix === 'brief')).toHaveLength(2);
  });

  it('never asks about an eba- name or another domain', () => {
    expect(
      elasticBeanstalkCheck.subject(finding('web.eba-a1b2c3d4.us-east-1.elasticbeanstalk.com')),
    ).toBeUndefined();
    expect(
      elasticBeanstalkCheck.subject(finding('acme.us-east-1.elasticbeanstalk.com.evil.test')),
    ).toBeUndefined();
  });
});

describe("Shopify's shop-name availability", () => {
  it('reads status available and unavailable of the shop in the record', async () => {
    expect(await ask(shopifyCheck, 'acme-store.myshopify.com', undefined, 'Shopify')).toMatchObject({
      answer: { name: 'acme-store', free: true, said: 'status: available' },
    });
    expect(server.requests.at(-1)?.path).toMatch(/shop_name=acme-store&email=/);
    server.names.set('acme-store', 'taken');
    expect(await ask(shopifyCheck, 'acme-store.myshopify.com', undefined, 'Shopify')).toMatchObject({
      answer: { free: false, said: 'status: unavailable' },
    });
    server.names.set('acme-store', 'garbage');
    expect(await ask(shopifyCheck, 'acme-store.myshopify.com', undefined, 'Shopify')).toHaveProperty(
      'unknown',
    );
  });

  it("has nothing to ask about Shopify's own shared target", () => {
    expect(shopifyCheck.subject(finding('shops.myshopify.com', 'Shopify'))).toBeUndefined();
  });
});

describe('Retry-After', () => {
  it.each([
    ['120', 120_000],
    [undefined, 1000],
    ['soon', 1000],
    ['Fri, 27 Nov 2026 12:00:30 GMT', 30_000],
  ])('%s waits %i ms', (value, ms) => {
    expect(retryAfterMs(value, Date.parse('Fri, 27 Nov 2026 12:00:00 GMT'))).toBe(ms);
  });
});
