import { describe, expect, it } from 'vitest';
import { EXAMPLE_FINDING } from '../../../../src/lib/dashboard/example-finding.ts';
import { byRisk, evidenceChain, FINDING_STATUS_TEXT } from '../../../../src/lib/dashboard/findings.ts';
import type { FindingView } from '../../../../src/model/contract.ts';
import { gradeFor } from '../../../../src/scanner/detect/grade.ts';
import { catalogue } from '../../../../src/scanner/fingerprints/catalogue.ts';
import { danglingCnameTexts } from '../../../../src/scanner/report/texts.ts';

describe('findings in the dashboard', () => {
  it('explains every status in a sentence', () => {
    for (const status of ['claimable', 'likely', 'review'] as const) {
      expect(FINDING_STATUS_TEXT[status].sentence.length).toBeGreaterThan(40);
    }
  });

  it('draws the chain subdomain → record → target → service → what answered', () => {
    expect(evidenceChain(EXAMPLE_FINDING)).toEqual([
      { label: 'Subdomain', value: 'assets.example.com' },
      { label: 'Record', value: 'CNAME' },
      { label: 'Target', value: 'assets.example.com.s3-website-us-east-1.amazonaws.com' },
      { label: 'Service', value: 'AWS S3' },
      {
        label: 'Answer',
        value:
          'http://assets.example.com/ (52.217.0.10) answered 404 with "NoSuchBucket" and "The specified bucket does not exist"',
      },
    ]);
  });

  it('takes NXDOMAIN as the answer of a CNAME whose target is gone', () => {
    const finding: FindingView = {
      subdomain: 'old.example.com',
      recordType: 'CNAME',
      target: 'gone.example.net',
      service: 'example.net',
      status: 'review',
      risk: 'low',
      evidence: [
        'old.example.com CNAME gone.example.net (resolver 127.0.0.1:5300)',
        'gone.example.net: NXDOMAIN',
        'confirmed NXDOMAIN for gone.example.net via resolver 127.0.0.1:5301',
      ],
      ...danglingCnameTexts('gone.example.net'),
    };
    expect(evidenceChain(finding).at(-1)).toEqual({ label: 'Answer', value: 'gone.example.net: NXDOMAIN' });
    expect(evidenceChain({ ...finding, evidence: [] }).at(-1)?.value).toBe('No answer recorded');
  });

  it('orders findings by risk, high first', () => {
    const low = { ...EXAMPLE_FINDING, subdomain: 'a.example.com', risk: 'low' as const };
    const high = { ...EXAMPLE_FINDING, subdomain: 'z.example.com', risk: 'high' as const };
    expect(byRisk([low, high]).map((f) => f.risk)).toEqual(['high', 'low']);
  });

  it("the home page's example finding uses the engine's catalogue texts for AWS S3 word for word", () => {
    const s3 = catalogue.find((entry) => entry.id === 'aws-s3');
    expect(s3).toBeDefined();
    if (!s3) return;
    expect(EXAMPLE_FINDING.service).toBe(s3.service);
    expect(EXAMPLE_FINDING.explanation).toBe(s3.explanation);
    expect(EXAMPLE_FINDING.proofOfConcept).toBe(s3.proofOfConcept);
    expect(EXAMPLE_FINDING.remediation).toBe(s3.remediation);
    expect({ status: EXAMPLE_FINDING.status, risk: EXAMPLE_FINDING.risk }).toEqual(gradeFor(s3));
    expect(EXAMPLE_FINDING.evidence).toContain(
      `AWS S3: ${s3.status} (reviewed ${s3.reviewed}: ${s3.reason})`,
    );
  });
});
