import { describe, expect, it } from 'vitest';
import type { FindingRecord } from '../../../src/model/contract.ts';
import { csvField, findingsCsv, findingsCsvFileName } from '../../../src/model/findings-csv.ts';

const record = (subdomain: string, extra: Partial<FindingRecord> = {}): FindingRecord => ({
  id: subdomain,
  key: `dw:${subdomain.length.toString(16).padStart(40, '0')}`,
  domain: 'acme.com',
  finding: {
    subdomain,
    recordType: 'CNAME',
    target: 'gone.herokuapp.com',
    service: 'Heroku',
    status: 'claimable',
    risk: 'high',
    evidence: [],
    explanation: 'x',
    proofOfConcept: 'y',
    remediation: 'Delete the record, or "re-create" the app',
  },
  firstSeenAt: '2026-11-20T08:00:00.000Z',
  lastSeenAt: '2026-11-22T08:00:00.000Z',
  resolvedAt: null,
  accepted: null,
  openedByScanId: null,
  resolvedByScanId: null,
  ...extra,
});

describe('open findings as CSV', () => {
  it('has a header row and one row per open finding, CRLF line ends', () => {
    const csv = findingsCsv([
      record('a.acme.com'),
      record('b.acme.com', { resolvedAt: '2026-11-21T00:00:00.000Z' }),
      record('c.acme.com', {
        accepted: {
          at: '2026-11-21T00:00:00.000Z',
          by: 'Ann',
          note: 'parked, on purpose',
          until: '2026-12-21T00:00:00.000Z',
        },
      }),
    ]);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'domain,subdomain,record_type,target,service,status,risk,first_seen,last_seen,accepted_risk_note,how_to_fix,proof,proof_checked_at,key',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe(
      'acme.com,a.acme.com,CNAME,gone.herokuapp.com,Heroku,claimable,high,2026-11-20T08:00:00.000Z,2026-11-22T08:00:00.000Z,,"Delete the record, or ""re-create"" the app",,,dw:000000000000000000000000000000000000000a',
    );
    expect(lines[2]).toContain('"parked, on purpose"');
    expect(lines[3]).toBe('');
  });

  it('carries the proof in words and when it was checked', () => {
    const proven = record('p.acme.com', {
      finding: {
        ...record('p.acme.com').finding,
        target: 'acme-staging-4821.azurewebsites.net',
        proof: {
          check: 'azure-app-service',
          answer: { name: 'acme-staging-4821', free: true, said: 'nameAvailable: true' },
          checkedAt: '2026-11-22T07:58:00.000Z',
        },
      },
    });
    expect(findingsCsv([proven]).split('\r\n')[1]).toMatch(
      /,Azure says the name acme-staging-4821 is free to register,2026-11-22T07:58:00\.000Z,dw:[0-9a-f]{40}$/,
    );
  });

  it('regression: a value a spreadsheet would run as a formula stays text', () => {
    expect(csvField('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2')).toBe("'-2");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('plain')).toBe('plain');
  });

  it('names the file with the date', () => {
    expect(findingsCsvFileName(new Date('2026-11-22T12:00:00Z'))).toBe('open-findings-2026-11-22.csv');
  });
});
