import type { FindingView } from '../../model/contract.ts';

/**
 * AN EXAMPLE, not a real scan: the finding the home page shows a visitor. Its texts are the scan
 * engine's catalogue texts for AWS S3 word for word (a unit test compares them with the catalogue,
 * which browser code may not import); the names are the reserved example.com.
 */
export const EXAMPLE_FINDING: FindingView = {
  subdomain: 'assets.example.com',
  recordType: 'CNAME',
  target: 'assets.example.com.s3-website-us-east-1.amazonaws.com',
  service: 'AWS S3',
  status: 'claimable',
  risk: 'high',
  evidence: [
    'assets.example.com CNAME assets.example.com.s3-website-us-east-1.amazonaws.com (resolver 1.1.1.1)',
    'http://assets.example.com/ (52.217.0.10) answered 404 with "NoSuchBucket" and "The specified bucket does not exist"',
    'AWS S3: vulnerable (reviewed 2026-11-22: bucket names are global; a deleted bucket name can be created by anyone in any account)',
    'confirmed via resolver 8.8.8.8: http://assets.example.com/ (52.217.0.10) answered 404 with "NoSuchBucket" and "The specified bucket does not exist"',
  ],
  explanation:
    'This name points at AWS S3, but AWS S3 answers that no bucket is configured for it. Anyone can take it over by creating an S3 bucket named exactly like this host name, in the region of the record.',
  proofOfConcept:
    'Claim it by creating an S3 bucket named exactly like this host name, in the region of the record; serve a page holding a random token and fetch it through this name, then release the bucket.',
  remediation: 'Delete the DNS record, or recreate the bucket on AWS S3 under your own account and keep it.',
};
