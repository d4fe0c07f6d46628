import { readFileSync } from 'node:fs';
import Ajv from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import type { FindingView, ScanView } from '../../../src/model/contract.ts';
import { buildSarif, ruleId, sarifFileName } from '../../../src/model/sarif.ts';

// The SARIF 2.1.0 schema (OASIS, as published on SchemaStore), vendored as a fixture.
const schema = JSON.parse(
  readFileSync(new URL('../../fixtures/schemas/sarif-2.1.0-rtm.5.json', import.meta.url), 'utf8'),
);
// The schema's language pattern is not valid with the u flag; read it as the schema's authors did.
const validate = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false }).compile(schema);

const finding = (subdomain: string, status: FindingView['status'], service = 'AWS S3'): FindingView => ({
  subdomain,
  recordType: 'CNAME',
  target: `${subdomain}.s3.amazonaws.com`,
  service,
  status,
  risk: status === 'claimable' ? 'high' : 'medium',
  evidence: [`${subdomain} CNAME ${subdomain}.s3.amazonaws.com`, 'HTTP 404 NoSuchBucket'],
  explanation: 'The bucket is gone.',
  proofOfConcept: 'Create the bucket.',
  remediation: 'Delete the record.',
});

const scan: ScanView = {
  scan_id: '11111111-2222-4333-8444-555555555555',
  domain: 'acme.com',
  status: 'completed',
  created_at: '2026-11-22T10:00:00.000Z',
  started_at: '2026-11-22T10:00:01.000Z',
  completed_at: '2026-11-22T10:00:09.000Z',
  duration_seconds: 8,
  subdomains_scanned: 3,
  vulnerabilities_found: 3,
  critical_count: 2,
  false_positives_filtered: 0,
  error: null,
  progress: null,
  scan_config: { skipDiscovery: false, useCertificateTransparency: true, useMultiStageValidation: true },
  findings: [
    {
      ...finding('a.acme.com', 'claimable'),
      proof: {
        check: 's3-bucket',
        answer: { name: 'a.acme.com', free: true, said: '404 NoSuchBucket' },
        checkedAt: '2026-11-22T10:00:08.000Z',
      },
    },
    finding('b.acme.com', 'likely'),
    finding('c.acme.com', 'review', 'Heroku'),
  ],
  changes: null,
  partial: false,
  namesChecked: 3,
  fingerprints: null,
};

describe('SARIF export', () => {
  it('validates against the SARIF 2.1.0 schema', () => {
    expect(validate({ version: '2.1.0' })).toBe(false);
    const log = buildSarif(scan);
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('also for a scan with no findings', () => {
    expect(validate(buildSarif({ ...scan, findings: [] }))).toBe(true);
  });

  it('maps status to level, one rule per service and record type, the DNS name as the location', () => {
    const run = buildSarif(scan).runs[0] as {
      tool: { driver: { rules: { id: string }[] } };
      results: { ruleId: string; level: string; locations: { logicalLocations: { name: string }[] }[] }[];
    };
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual([
      'dangling-cname/aws-s3',
      'dangling-cname/heroku',
    ]);
    expect(run.results.map((r) => r.level)).toEqual(['error', 'warning', 'note']);
    expect(run.results[0]?.ruleId).toBe(ruleId(scan.findings[0] as FindingView));
    expect(run.results[2]?.locations[0]?.logicalLocations[0]?.name).toBe('c.acme.com');
    expect(sarifFileName(scan)).toBe('scan-report-acme.com-11111111-2222-4333-8444-555555555555.sarif');
  });

  it("carries each result's proof, null where nothing proved it", () => {
    const run = buildSarif(scan).runs[0] as { results: { properties: { proof: unknown } }[] };
    expect(run.results[0]?.properties.proof).toEqual(scan.findings[0]?.proof);
    expect(run.results[1]?.properties.proof).toBeNull();
  });
});

describe("the fingerprints' sources, in SARIF", () => {
  it('are the tool extensions, each with its address and date; a scan that did not record them has none', () => {
    const fingerprints = [
      { name: 'nuclei-templates', url: 'file:///srv/nuclei/http/takeovers', date: '2026-11-28' },
      { name: 'BadDNS', url: 'https://github.com/blacklanternsecurity/baddns', date: '2026-03-22' },
    ];
    const log = buildSarif({ ...scan, fingerprints });
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const tool = (log.runs[0] as { tool: { extensions?: unknown } }).tool;
    expect(tool.extensions).toEqual([
      {
        name: 'nuclei-templates',
        informationUri: 'file:///srv/nuclei/http/takeovers',
        releaseDateUtc: '2026-11-28',
      },
      {
        name: 'BadDNS',
        informationUri: 'https://github.com/blacklanternsecurity/baddns',
        releaseDateUtc: '2026-03-22',
      },
    ]);
    expect((buildSarif(scan).runs[0] as { tool: object }).tool).not.toHaveProperty('extensions');
  });
});

describe('checks a scan could not finish, in SARIF', () => {
  it("are warnings of the run's invocation, each on its name, and the log still validates", () => {
    const errors: ScanView['errors'] = [
      { subdomain: 'www.acme.com', stage: 'detect', message: 'the server kept sending after 256 KB' },
      { stage: 'discover', message: 'crt.sh: HTTP 503' },
    ];
    const log = buildSarif({ ...scan, errors });
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const run = log.runs[0] as {
      invocations: {
        executionSuccessful: boolean;
        toolExecutionNotifications: {
          level: string;
          message: { text: string };
          locations?: { logicalLocations: { name: string }[] }[];
        }[];
      }[];
    };
    const [invocation] = run.invocations;
    expect(invocation?.executionSuccessful).toBe(true);
    expect(invocation?.toolExecutionNotifications.map((n) => [n.level, n.message.text])).toEqual([
      ['warning', 'Could not check www.acme.com: the server kept sending after 256 KB'],
      ['warning', 'crt.sh: HTTP 503'],
    ]);
    expect(invocation?.toolExecutionNotifications[0]?.locations?.[0]?.logicalLocations[0]?.name).toBe(
      'www.acme.com',
    );
    expect(invocation?.toolExecutionNotifications[1]?.locations).toBeUndefined();
  });

  it('a scan with none has no notifications', () => {
    const run = buildSarif(scan).runs[0] as { invocations: Record<string, unknown>[] };
    expect(run.invocations[0]).not.toHaveProperty('toolExecutionNotifications');
  });
});

describe("the finding's key in SARIF", () => {
  it("carries a workspace finding's key in partialFingerprints, and none where the finding has none", () => {
    const key = 'dw:0123456789abcdef0123456789abcdef01234567';
    const keyed = { ...scan, findings: [{ ...finding('a.acme.com', 'claimable'), key }] };
    const log = buildSarif(keyed) as {
      runs: { results: { partialFingerprints: Record<string, string> }[] }[];
    };
    expect(validate(log)).toBe(true);
    expect(log.runs[0]?.results[0]?.partialFingerprints['danglewatch/key']).toBe(key);
    const plain = buildSarif({ ...scan, findings: [finding('a.acme.com', 'claimable')] }) as typeof log;
    expect(plain.runs[0]?.results[0]?.partialFingerprints).not.toHaveProperty('danglewatch/key');
  });
});
