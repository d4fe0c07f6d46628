import { z } from 'zod';
import { API_RATE_WINDOW_SECONDS } from '../core/limits.ts';
import { API_KEY_PREFIX, API_PLANS } from '../model/api-access.ts';
import { apiErrorBodySchema } from '../model/api-error.ts';
import {
  DOMAIN_STATUSES,
  type DomainListResponse,
  type DomainView,
  FINDING_RECORD_TYPES,
  FINDING_STATUSES,
  type FindingChanges,
  type FindingRecord,
  type FindingView,
  INVENTORY_SOURCES,
  NAME_SOURCES,
  type QuotaView,
  RISKS,
  SCAN_STATUSES,
  type ScanListResponse,
  type ScanView,
} from '../model/contract.ts';
import { describeApi } from '../model/plans.ts';
import { PROOF_CHECK_IDS, type ProofCheckId } from '../model/proof.ts';
import {
  alertSettingsSchema,
  findingQuerySchema,
  scanConfigSchema,
  scanListQuerySchema,
  startScanSchema,
} from '../model/schemas.ts';

/**
 * The OpenAPI 3.1 document of the public API (GET /api/v1/openapi.json), generated from zod:
 * requests from the very schemas the routes validate with, answers from the schemas below, each
 * checked against the contract's TypeScript type (`satisfies`) so that neither can drift, and
 * parsed against real answers in the tests.
 */

const iso = z.iso.datetime({ offset: true });
const findingStatus = z.enum(FINDING_STATUSES);

/** What proves a finding claimable, or its name taken: the provider's answer, and when. */
const proofSchema = z.object({
  check: z.enum(PROOF_CHECK_IDS as [ProofCheckId, ...ProofCheckId[]]),
  answer: z.object({ name: z.string(), free: z.boolean(), said: z.string() }),
  checkedAt: iso,
});

/** The contract's `FindingView`; tests/unit/server/openapi-finding.test.ts holds the two equal. */
export const findingSchema = z.object({
  subdomain: z.string(),
  recordType: z.enum(FINDING_RECORD_TYPES),
  target: z.string(),
  service: z.string(),
  status: findingStatus,
  risk: z.enum(RISKS),
  evidence: z.array(z.string()),
  explanation: z.string(),
  proofOfConcept: z.string(),
  remediation: z.string(),
  sources: z.array(z.enum(NAME_SOURCES)).optional(),
  proof: proofSchema.nullable().optional(),
  key: z.string().optional(),
}) satisfies z.ZodType<FindingView>;

const findingRef = findingSchema.pick({
  subdomain: true,
  recordType: true,
  target: true,
  service: true,
  status: true,
  key: true,
});

const findingChangesSchema = z.object({
  new: z.array(findingRef),
  changed: z.array(findingRef.extend({ from: z.object({ status: findingStatus, target: z.string() }) })),
  resolved: z.array(findingRef),
  stillOpen: z.number().int(),
}) satisfies z.ZodType<FindingChanges>;

const scanSchema = z.object({
  scan_id: z.uuid(),
  domain: z.string(),
  status: z.enum(SCAN_STATUSES),
  created_at: iso,
  started_at: iso.nullable(),
  completed_at: iso.nullable(),
  duration_seconds: z.number().nullable(),
  subdomains_scanned: z.number().int(),
  vulnerabilities_found: z.number().int(),
  critical_count: z.number().int(),
  false_positives_filtered: z.number().int(),
  error: z.string().nullable(),
  progress: z.object({ stage: z.string(), checked: z.number().int(), total: z.number().int() }).nullable(),
  scan_config: scanConfigSchema.omit({ scanFrequency: true }),
  findings: z.array(findingSchema),
  subdomains: z.array(z.string()).optional().meta({ description: 'The names checked; only on one scan.' }),
  errors: z
    .array(
      z.object({
        subdomain: z.string().optional(),
        stage: z.enum(['discover', 'resolve', 'detect', 'validate']),
        message: z.string(),
      }),
    )
    .optional()
    .meta({
      description:
        'The checks it could not finish and the lookups that failed (a name here and not in subdomains was not checked); only on one scan.',
    }),
  changes: findingChangesSchema.nullable(),
  partial: z.boolean(),
  namesChecked: z.number().int(),
  fingerprints: z
    .array(z.object({ name: z.string(), url: z.string(), date: z.iso.date() }))
    .nullable()
    .meta({
      description:
        'The sources of the takeover fingerprints it judged names by, each with the date of what was read (the catalogue updates between releases); null until it completed, and for scans stored before they were recorded.',
    }),
}) satisfies z.ZodType<ScanView>;

const quotaSchema = z.object({
  tier: z.string(),
  currentDomains: z.number().int(),
  maxDomains: z.number().int(),
  scansUsedToday: z.number().int(),
  maxScansPerDay: z.number().int().nullable(),
  scansUsedThisMonth: z.number().int(),
  maxScansPerMonth: z.number().int().nullable(),
  resetDate: iso,
  sharedWith: z
    .array(z.object({ id: z.string(), name: z.string() }))
    .meta({ description: 'Other workspaces counted against the same Free allowance; empty on a paid plan.' }),
}) satisfies z.ZodType<QuotaView>;

const domainSchema = z.object({
  id: z.uuid(),
  domain: z.string(),
  status: z.enum(DOMAIN_STATUSES),
  verificationMethod: z.literal('dns'),
  verificationToken: z.string(),
  txtRecord: z.object({
    type: z.literal('TXT'),
    // Relative to the registered domain's zone: @ for that domain itself, `app` for app.example.com.
    name: z.string(),
    value: z.string(),
  }),
  addedAt: iso,
  verifiedAt: iso.nullable(),
  proof: z.enum(['zone', 'txt', 'shared']).nullable(),
  lastScanAt: iso.nullable(),
  nextScanAt: iso.nullable(),
  vulnerabilitiesCount: z.number().int(),
  openFindings: z.object({
    claimable: z.number().int(),
    likely: z.number().int(),
    review: z.number().int(),
    accepted: z.number().int(),
  }),
  isActive: z.boolean(),
  pausedReason: z.string().nullable(),
  overPlanLimit: z.boolean(),
  inventory: z
    .object({
      source: z.enum(INVENTORY_SOURCES),
      readAt: iso,
      records: z.number().int(),
      sources: z.array(
        z.object({ source: z.enum(INVENTORY_SOURCES), readAt: iso, records: z.number().int() }),
      ),
    })
    .nullable(),
  lastScanId: z.uuid().nullable(),
  scanStatus: z.enum(SCAN_STATUSES).nullable(),
  subdomainsScanned: z.number().int().nullable(),
  criticalCount: z.number().int().nullable(),
  falsePositivesFiltered: z.number().int().nullable(),
  durationSeconds: z.number().nullable(),
  fullScan: z
    .object({
      id: z.uuid(),
      status: z.enum(SCAN_STATUSES),
      at: iso,
      subdomainsScanned: z.number().int(),
      falsePositivesFiltered: z.number().int(),
      durationSeconds: z.number().nullable(),
    })
    .nullable(),
  scanConfig: scanConfigSchema,
  alerts: alertSettingsSchema,
  error: z.string().nullable(),
}) satisfies z.ZodType<DomainView>;

const findingRecordSchema = z.object({
  id: z.uuid(),
  key: z.string(),
  domain: z.string(),
  finding: findingSchema,
  firstSeenAt: iso,
  lastSeenAt: iso,
  resolvedAt: iso.nullable(),
  accepted: z
    .object({ at: iso, by: z.string().nullable(), note: z.string(), until: z.string().nullable() })
    .nullable(),
  acceptanceEnded: z
    .object({ by: z.string().nullable(), until: z.string().nullable(), at: iso })
    .nullable()
    .optional(),
  openedByScanId: z.uuid().nullable(),
  resolvedByScanId: z.uuid().nullable(),
}) satisfies z.ZodType<FindingRecord>;

/** The answers of the public API, by name; the tests parse real answers with them. */
export const publicApiAnswers = {
  DomainList: z.object({
    domains: z.array(domainSchema),
    quota: quotaSchema,
  }) satisfies z.ZodType<DomainListResponse>,
  ScanStarted: z.object({ scan_id: z.uuid(), status: z.enum(SCAN_STATUSES) }),
  ScanList: z.object({
    scans: z.array(scanSchema),
    total: z.number().int(),
  }) satisfies z.ZodType<ScanListResponse>,
  Scan: scanSchema,
  FindingList: z.object({ findings: z.array(findingRecordSchema) }),
  Error: apiErrorBodySchema,
};

const components = z.registry<{ id: string }>();
for (const [id, schema] of Object.entries({
  ...publicApiAnswers,
  Domain: domainSchema,
  Quota: quotaSchema,
  Finding: findingSchema,
  FindingRecord: findingRecordSchema,
  FindingChanges: findingChangesSchema,
  StartScanRequest: startScanSchema,
})) {
  components.add(schema, { id });
}

type JsonSchema = Record<string, unknown>;

function componentSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(components, {
    // Requests are described as clients send them (defaults optional); answers have no defaults.
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
  });
  // Without `$id`: zod gives each its URI, a fragment, which JSON Schema 2020-12 forbids there (Ajv
  // and the generators refuse it); a component is named by its key and reached by `$ref`.
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _, id: __, $id: ___, ...schema }]) => [
      id,
      schema as JsonSchema,
    ]),
  );
}

/** An object schema's properties as OpenAPI query parameters. */
function queryParameters(schema: z.ZodObject): JsonSchema[] {
  const json = z.toJSONSchema(schema, { io: 'input' }) as { properties?: Record<string, JsonSchema> };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: false,
    schema: property,
  }));
}

const ref = (id: keyof typeof publicApiAnswers | 'StartScanRequest') => ({
  $ref: `#/components/schemas/${id}`,
});

const rateHeaders = {
  'X-RateLimit-Limit': {
    description: 'Calls your plan allows per hour.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Calls left in this hour.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': {
    description: 'When the hour ends and the count starts again, in Unix seconds.',
    schema: { type: 'integer' },
  },
};

function answer(description: string, schema: JsonSchema, headers: JsonSchema = rateHeaders) {
  return { description, headers, content: { 'application/json': { schema } } };
}

/** The failures every keyed call may answer, in the one error shape. */
const keyedErrors = {
  '401': answer(
    'No API key, an unknown or revoked one, or one whose maker left the workspace.',
    ref('Error'),
    {},
  ),
  '403': answer(
    'The key owner’s plan has no API access, or the key’s role may not make this call: a key acts with at most its maker’s current role in the workspace.',
    ref('Error'),
    {},
  ),
  '429': answer('Rate limit exceeded: wait for Retry-After seconds.', ref('Error'), {
    ...rateHeaders,
    'Retry-After': { description: 'Seconds until the hour ends.', schema: { type: 'integer' } },
  }),
};

/** A call made with an API key; `operationId` names the method a generated client gives it. */
function keyed(
  operationId: string,
  summary: string,
  responses: Record<string, unknown>,
  extra: JsonSchema = {},
) {
  return {
    operationId,
    summary,
    security: [{ apiKey: [] }],
    ...extra,
    responses: { ...responses, ...keyedErrors },
  };
}

function buildDocument() {
  const limits = API_PLANS.map((plan) => `${plan.name}: ${describeApi(plan)}`).join('; ');
  return {
    openapi: '3.1.0',
    info: {
      title: 'DangleWatch API',
      version: '1',
      description: `Your domains, scans and findings, for scripts and CI. Authenticate with an API key from Settings → API (\`Authorization: Bearer ${API_KEY_PREFIX}…\`). Calls per hour, for all of a user's keys together (a window of ${API_RATE_WINDOW_SECONDS / 60} minutes): ${limits}. Every keyed answer carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset; errors use one shape ({ error, code, statusCode, requestId, details? }). Guide: /docs/api.`,
    },
    // Relative: the server that serves this document is the one it describes.
    servers: [{ url: '/', description: 'The DangleWatch server that serves this document' }],
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', bearerFormat: `${API_KEY_PREFIX}… API key` },
      },
      schemas: componentSchemas(),
    },
    paths: {
      '/api/v1/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          summary: 'This document',
          security: [],
          responses: { '200': { description: 'The OpenAPI document.', content: { 'application/json': {} } } },
        },
      },
      '/api/v1/domains': {
        get: keyed('listDomains', 'Your monitored domains with their latest scans, and your quota', {
          '200': answer('Your domains and quota.', ref('DomainList')),
        }),
      },
      '/api/v1/scans': {
        get: keyed(
          'listScans',
          'Your scans, newest first',
          {
            '200': answer('A page of scans and how many match.', ref('ScanList')),
            '400': answer('A query parameter is invalid.', ref('Error')),
          },
          { parameters: queryParameters(scanListQuerySchema) },
        ),
        post: keyed(
          'startScan',
          'Start a scan of one of your verified domains',
          {
            '202': answer('The scan is queued; poll GET /api/v1/scans/{id}.', ref('ScanStarted')),
            '400': answer('The body is invalid (the field is named).', ref('Error')),
            '409': answer(
              'The domain is not verified, a scan of it is running, or the daily quota is used.',
              ref('Error'),
            ),
            '415': answer('The body is not application/json.', ref('Error')),
          },
          {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: ref('StartScanRequest') } },
            },
          },
        ),
      },
      '/api/v1/scans/{id}': {
        get: keyed(
          'getScan',
          'One scan with its findings and the names it checked',
          {
            '200': answer('The scan.', ref('Scan')),
            '400': answer('The id is not a scan id.', ref('Error')),
            '404': answer('No scan of yours has this id.', ref('Error')),
          },
          {
            parameters: [
              { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
            ],
          },
        ),
      },
      '/api/v1/findings': {
        get: keyed(
          'listFindings',
          'Your findings with their history across scans',
          {
            '200': answer('Findings, most recently seen first.', ref('FindingList')),
            '400': answer('A query parameter is invalid.', ref('Error')),
          },
          { parameters: queryParameters(findingQuerySchema) },
        ),
      },
    },
  };
}

let document: ReturnType<typeof buildDocument> | undefined;

/** Built on first use, then kept: it depends on nothing that changes while the server runs. */
export function openApiDocument() {
  document ??= buildDocument();
  return document;
}
