import type { FindingView, FingerprintSourceView, ScanErrorView, ScanView } from './contract.ts';
import { scanErrorSentence } from './scan-errors.ts';

/** SARIF 2.1.0, the format code-scanning dashboards read: one run, a rule per service and record type. */
interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: unknown[];
}

const LEVEL: Record<FindingView['status'], 'error' | 'warning' | 'note'> = {
  claimable: 'error',
  likely: 'warning',
  review: 'note',
};

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export const ruleId = (f: FindingView) =>
  `dangling-${f.recordType.toLowerCase()}/${slug(f.service) || 'unknown'}`;

/** What identifies a finding across reports: SARIF's partial fingerprint, and a baseline's key. */
export const findingFingerprint = (f: {
  subdomain: string;
  recordType: string;
  target: string;
  service: string;
}) => `${f.subdomain}|${f.recordType}|${f.target}|${f.service}`;

/** The key of our fingerprint in a result's `partialFingerprints`. */
export const FINGERPRINT_KEY = 'danglewatch/v1';
/** The key of the finding's own key (`dw:…`), where the finding carries one (the workspace's scans). */
export const FINDING_KEY = 'danglewatch/key';

export function sarifFileName(scan: Pick<ScanView, 'domain' | 'scan_id'>): string {
  return `scan-report-${scan.domain}-${scan.scan_id}.sarif`;
}

/** The DNS name as SARIF places it: a logical location (there is no file). */
const nameLocation = (subdomain: string, recordType?: string) => ({
  name: subdomain,
  fullyQualifiedName: recordType ? `dns:${subdomain}/${recordType}` : `dns:${subdomain}`,
  kind: 'resource',
});

/**
 * A check the scan could not finish, as a notification of the run: a warning on the name, not a
 * result (nothing was found), so that a name whose check failed never reads as a clean one.
 */
const notification = (error: ScanErrorView) => ({
  level: 'warning',
  message: { text: scanErrorSentence(error) },
  ...(error.subdomain ? { locations: [{ logicalLocations: [nameLocation(error.subdomain)] }] } : {}),
  properties: { stage: error.stage },
});

/**
 * A scan as a SARIF log: each finding a result on the DNS name (a logical location), with its fix;
 * each check it could not finish a notification of the run. Given `known` (a baseline's findings),
 * each result says whether it is new or was known.
 */
export function buildSarif(
  scan: Pick<ScanView, 'findings' | 'status' | 'started_at' | 'completed_at' | 'errors'> & {
    fingerprints?: readonly FingerprintSourceView[] | null;
  },
  toolVersion = '0.1.0',
  known?: (finding: FindingView) => boolean,
): SarifLog {
  const rules = new Map<string, FindingView>();
  for (const f of scan.findings) if (!rules.has(ruleId(f))) rules.set(ruleId(f), f);
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'DangleWatch',
            version: toolVersion,
            informationUri: 'https://github.com/danglewatch/danglewatch',
            rules: [...rules].map(([id, f]) => ({
              id,
              name: `Dangling${f.recordType}`,
              shortDescription: { text: `${f.recordType} record into ${f.service} that anyone may claim` },
              help: { text: f.remediation },
              properties: { tags: ['security', 'subdomain-takeover', 'dns'] },
            })),
          },
          // The fingerprints' sources are what reconfigured the analysis: SARIF's tool extensions,
          // each with where it was read and the date of what was read.
          ...(scan.fingerprints?.length
            ? {
                extensions: scan.fingerprints.map((source) => ({
                  name: source.name,
                  informationUri: source.url,
                  releaseDateUtc: source.date,
                })),
              }
            : {}),
        },
        invocations: [
          {
            executionSuccessful: scan.status === 'completed',
            ...(scan.started_at ? { startTimeUtc: scan.started_at } : {}),
            ...(scan.completed_at ? { endTimeUtc: scan.completed_at } : {}),
            ...(scan.errors?.length ? { toolExecutionNotifications: scan.errors.map(notification) } : {}),
          },
        ],
        results: scan.findings.map((f) => ({
          ruleId: ruleId(f),
          level: LEVEL[f.status],
          message: { text: `${f.subdomain}: ${f.explanation} Fix: ${f.remediation}` },
          locations: [
            {
              // GitHub code scanning refuses a file whose results have no physical location (a
              // repository-relative URI and a start line): the DNS name stands in as a path.
              physicalLocation: { artifactLocation: { uri: `dns/${f.subdomain}` }, region: { startLine: 1 } },
              logicalLocations: [nameLocation(f.subdomain, f.recordType)],
            },
          ],
          partialFingerprints: {
            [FINGERPRINT_KEY]: findingFingerprint(f),
            ...(f.key ? { [FINDING_KEY]: f.key } : {}),
          },
          ...(known ? { baselineState: known(f) ? 'unchanged' : 'new' } : {}),
          properties: {
            status: f.status,
            risk: f.risk,
            target: f.target,
            service: f.service,
            evidence: f.evidence,
            proofOfConcept: f.proofOfConcept,
            // What proves it claimable: the provider's answer and when; null when nothing did.
            proof: f.proof ?? null,
          },
        })),
      },
    ],
  };
}
