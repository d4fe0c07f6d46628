import { describe, expect, it } from 'vitest';
import { EXAMPLE_FINDING } from '../../../../src/lib/dashboard/example-finding.ts';
import { buildScanReport, exportFileName, reportFileName } from '../../../../src/lib/dashboard/report.ts';
import type { ScanView } from '../../../../src/model/contract.ts';

const scan: ScanView = {
  scan_id: '7c1d2e3f-aaaa-bbbb-cccc-000000000001',
  domain: 'example.com',
  status: 'completed',
  created_at: '2026-11-22T10:00:00.000Z',
  started_at: '2026-11-22T10:00:01.000Z',
  completed_at: '2026-11-22T10:00:31.000Z',
  duration_seconds: 30,
  subdomains_scanned: 2,
  vulnerabilities_found: 1,
  critical_count: 1,
  false_positives_filtered: 0,
  error: null,
  progress: null,
  scan_config: { skipDiscovery: false, useCertificateTransparency: true, useMultiStageValidation: true },
  findings: [EXAMPLE_FINDING],
  subdomains: ['example.com', 'assets.example.com'],
  changes: null,
  partial: false,
  namesChecked: 3,
  fingerprints: [
    {
      name: 'nuclei-templates',
      url: 'https://github.com/projectdiscovery/nuclei-templates',
      date: '2026-11-27',
    },
  ],
};

describe('scan report download', () => {
  it('is named scan-report-{domain}-{id}.json', () => {
    expect(reportFileName(scan)).toBe('scan-report-example.com-7c1d2e3f-aaaa-bbbb-cccc-000000000001.json');
  });

  it('holds scanId, domain, the completion time, the results and the vulnerabilities', () => {
    const report = buildScanReport(scan);
    expect(Object.keys(report)).toEqual(['scanId', 'domain', 'timestamp', 'results', 'vulnerabilities']);
    expect(report.scanId).toBe(scan.scan_id);
    expect(report.domain).toBe('example.com');
    expect(report.timestamp).toBe('2026-11-22T10:00:31.000Z');
    expect(report.results).toMatchObject({
      status: 'completed',
      subdomainsFound: 2,
      subdomains: ['example.com', 'assets.example.com'],
      totalVulnerabilities: 1,
      criticalCount: 1,
      durationSeconds: 30,
      // The downloaded report says what its verdicts rest on, as the scan recorded it.
      fingerprints: scan.fingerprints,
    });
    expect(report.vulnerabilities).toEqual([EXAMPLE_FINDING]);
    // What is downloaded survives a JSON round trip unchanged.
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it('falls back to the start time when a scan never completed, and to no names when the list had none', () => {
    const { subdomains: _, ...listed } = scan;
    const report = buildScanReport({ ...listed, status: 'failed', completed_at: null });
    expect(report.timestamp).toBe('2026-11-22T10:00:01.000Z');
    expect(report.results.subdomains).toEqual([]);
  });

  it("names the 'Export All' file with the day of the export", () => {
    expect(exportFileName('2026-11-22T17:00:00.000Z')).toBe('danglewatch-scans-2026-11-22.json');
  });
});
