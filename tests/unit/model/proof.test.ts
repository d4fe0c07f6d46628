import { describe, expect, it } from 'vitest';
import {
  agoText,
  noProofLine,
  PROOF_CHECK_IDS,
  PROOF_CHECKS,
  type Proof,
  proofLine,
  proofsOffText,
} from '../../../src/model/proof.ts';

const NOW = Date.parse('2026-11-27T12:00:00.000Z');
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();
const proof = (check: Proof['check'], name: string, free: boolean, msAgo: number): Proof => ({
  check,
  answer: { name, free, said: '' },
  checkedAt: at(msAgo),
});

/** Each check's line, free and taken, at several ages: the words users read on the dashboard. */
const LINES: Array<[Proof, string]> = [
  [
    proof('azure-app-service', 'acme-staging-4821', true, 120_000),
    'Azure says the name acme-staging-4821 is free to register, checked 2 minutes ago',
  ],
  [
    proof('azure-app-service', 'acme-staging-4821', false, 60_000),
    'Azure says the name acme-staging-4821 is taken, checked 1 minute ago',
  ],
  [
    proof('s3-bucket', 'assets.acme.com', true, 5_000),
    'AWS S3 says the bucket assets.acme.com does not exist (NoSuchBucket), checked just now',
  ],
  [
    proof('s3-bucket', 'assets.acme.com', false, 3 * 3_600_000),
    'AWS S3 says the bucket assets.acme.com exists in another account, checked 3 hours ago',
  ],
  [
    proof('elastic-beanstalk', 'acme-prod', true, 26 * 3_600_000),
    'AWS Elastic Beanstalk says the CNAME prefix acme-prod is free to register, checked 1 day ago',
  ],
  [
    proof('rdap', 'acme-cdn.com', true, 2 * 86_400_000),
    'RDAP says the domain acme-cdn.com is not registered, checked 2 days ago',
  ],
  [
    proof('rdap-lapse', 'acme-old.com', true, 0),
    'RDAP says the domain acme-old.com has expired and is being deleted, checked just now',
  ],
  [
    proof('azure-traffic-manager', 'acme-tm', true, 0),
    'Azure says the Traffic Manager name acme-tm is free to register, checked just now',
  ],
  [
    proof('fastly', 'cdn.acme.com', true, 0),
    'Fastly says the domain cdn.acme.com is on no Fastly service, nor is its parent domain, checked just now',
  ],
  [
    proof('shopify', 'acme-store', false, 0),
    'Shopify says the shop name acme-store is taken, checked just now',
  ],
];

describe('the proof line', () => {
  it.each(LINES)('%#: %s', (given, line) => {
    expect(proofLine(given, NOW)).toBe(line);
  });

  it('every check has its provider and words', () => {
    for (const id of PROOF_CHECK_IDS) {
      const check = PROOF_CHECKS[id];
      expect(check.provider.length, id).toBeGreaterThan(1);
      expect(check.free, id).not.toBe(check.taken);
    }
  });

  it('counts whole units of the time since', () => {
    expect(agoText(at(59_999), NOW)).toBe('just now');
    expect(agoText(at(119_999), NOW)).toBe('1 minute ago');
    expect(agoText(at(3_600_000), NOW)).toBe('1 hour ago');
  });

  it('says plainly when nothing proves a finding', () => {
    expect(noProofLine('likely')).toBe('Not proven: no provider answered for this name');
    expect(noProofLine('review')).toBe('Not claimable as far as anyone can show');
  });

  it('names the providers whose proofs are off, once each, and nothing when all run', () => {
    expect(proofsOffText(['elastic-beanstalk', 'azure-app-service', 'azure-cdn'])).toBe(
      'Findings on AWS Elastic Beanstalk or Azure stop at "likely" here: this server cannot ask those providers whether a name is free to claim. Treat them as urgent all the same: check at AWS Elastic Beanstalk or Azure that what the record points to is still yours, or remove the record.',
    );
    expect(proofsOffText(['azure-storage'])).toMatch(
      /^Findings on Azure stop at "likely" here: .* ask that provider /,
    );
    expect(proofsOffText([])).toBeNull();
  });
});
