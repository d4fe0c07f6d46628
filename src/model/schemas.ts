import { z } from 'zod';
import { parseUntil, UNTIL_RECORD_CHANGES } from './acceptance.ts';
import { ACTIVITY_CURSOR } from './activity.ts';
import { API_KEY_NAME_MAX } from './api-access.ts';
import { CONNECTION_MESSAGES } from './connections.ts';
import {
  INVENTORY_MAX_PAGE_SIZE,
  INVENTORY_PAGE_SIZE,
  RISK_NOTE_MAX,
  SCANS_MAX_PAGE_SIZE,
  SCANS_PAGE_SIZE,
} from './constants.ts';
import {
  type AlertSettings,
  FINDING_STATES,
  FINDING_STATUSES,
  SCAN_FREQUENCIES,
  SCAN_STATUSES,
  type ScanConfig,
  type StartScanRequest,
} from './contract.ts';
import { checkDomainFormat, DOMAIN_MESSAGES } from './domain-input.ts';
import { DEFAULT_INTEGRATION_MIN_STATUS } from './integrations.ts';
import { INVITABLE_ROLES, WORKSPACE_NAME_MAX, WORKSPACE_ROLES } from './workspaces.ts';

/** The server's request schemas for the dashboard API, on the contract's types and rules. */

export const scanConfigSchema = z.strictObject({
  skipDiscovery: z.boolean(),
  useCertificateTransparency: z.boolean(),
  useMultiStageValidation: z.boolean(),
  scanFrequency: z.enum(SCAN_FREQUENCIES),
}) satisfies z.ZodType<ScanConfig>;

export const alertSettingsSchema = z.strictObject({
  email: z.boolean(),
  webhooks: z.boolean(),
  minStatus: z.enum(FINDING_STATUSES),
}) satisfies z.ZodType<AlertSettings>;

export const startScanSchema = z.strictObject({
  domain: z.string().max(300),
  scanType: z.literal('dangling-subdomains'),
  skip_discovery: z.boolean().optional(),
  use_certificate_transparency: z.boolean().optional(),
  use_multi_stage_validation: z.boolean().optional(),
}) satisfies z.ZodType<StartScanRequest>;

/** The domain field of every request that names a domain: the browser's format rule, in zod. */
export const domainNameSchema = z
  .string({ error: DOMAIN_MESSAGES.required })
  .max(300, DOMAIN_MESSAGES.invalid)
  .transform((value, ctx) => {
    const check = checkDomainFormat(value);
    if (!check.ok) {
      ctx.addIssue({ code: 'custom', message: check.message });
      return z.NEVER;
    }
    return check.domain;
  });

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The query of the scan lists (GET /scan/api/v1/scans, GET /api/v1/scans). */
export const scanListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(SCANS_MAX_PAGE_SIZE).default(SCANS_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  status: z.enum(SCAN_STATUSES).optional(),
  q: z.string().trim().max(200).optional(),
});

/** Where a page of a domain's inventory ends: the last record's (name, type, data), the order it is read in. */
export interface InventoryCursor {
  name: string;
  type: string;
  data: string;
}

/** The opaque `nextCursor` of an inventory page: clients pass it back unread. */
export function encodeInventoryCursor(after: InventoryCursor): string {
  return Buffer.from(JSON.stringify([after.name, after.type, after.data])).toString('base64url');
}

const inventoryCursorSchema = z
  .string()
  .max(16 * 1024)
  .transform((value, ctx) => {
    try {
      const [name, type, data] = z
        .tuple([z.string(), z.string(), z.string()])
        .parse(JSON.parse(Buffer.from(value, 'base64url').toString()));
      return { name, type, data } satisfies InventoryCursor;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be the nextCursor of the previous page' });
      return z.NEVER;
    }
  });

/**
 * GET /api/domains/{id}/records: a page of the inventory, in (name, type, data) order. `q` keeps the
 * names holding it (any case), `type` one record type.
 */
export const inventoryQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(INVENTORY_MAX_PAGE_SIZE).default(INVENTORY_PAGE_SIZE),
  cursor: inventoryCursorSchema.optional(),
  q: z.string().trim().max(253).optional(),
  type: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9]{0,15}$/, 'must be a record type such as A, CNAME or TXT')
    .transform((value) => value.toUpperCase())
    .optional(),
});

/** Where a page of a cloud account's inventory ends: the last item's (kind, value), its order. */
export interface CloudInventoryCursor {
  kind: string;
  value: string;
}

export function encodeCloudInventoryCursor(after: CloudInventoryCursor): string {
  return Buffer.from(JSON.stringify([after.kind, after.value])).toString('base64url');
}

/**
 * GET /api/cloud-accounts/{id}/inventory: a page in (kind, value) order, paged as the records list.
 * `q` keeps the values or names holding it, `type` one type (elastic-ip, bucket, …).
 */
export const cloudInventoryQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(INVENTORY_MAX_PAGE_SIZE).default(INVENTORY_PAGE_SIZE),
  cursor: z
    .string()
    .max(4 * 1024)
    .transform((value, ctx) => {
      try {
        const [kind, after] = z
          .tuple([z.string(), z.string()])
          .parse(JSON.parse(Buffer.from(value, 'base64url').toString()));
        return { kind, value: after } satisfies CloudInventoryCursor;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be the nextCursor of the previous page' });
        return z.NEVER;
      }
    })
    .optional(),
  q: z.string().trim().max(253).optional(),
  type: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be an inventory type such as elastic-ip or bucket')
    .optional(),
});

export const findingQuerySchema = z.strictObject({
  domain: z.string().max(300).optional(),
  state: z.enum(FINDING_STATES).default('all'),
  /** One finding by its key: what a ticket's or alert's link to the finding carries. */
  key: z
    .string()
    .trim()
    .regex(/^dw:[0-9a-f]{1,61}$/, 'must be a finding key, dw: and its hash')
    .optional(),
});

/**
 * Accept a finding as a risk, with a note saying why and when the acceptance ends (checked against
 * the clock by the service), or take the acceptance back.
 */
export const acceptRiskSchema = z.discriminatedUnion('accepted', [
  z.strictObject({
    accepted: z.literal(true),
    note: z
      .string()
      .trim()
      .min(1)
      .max(RISK_NOTE_MAX)
      .refine((text) => !CONTROL_CHARACTERS.test(text), 'must not hold control characters'),
    until: z
      .string()
      .max(64)
      .refine(
        (text) => parseUntil(text) !== null,
        `must be an ISO 8601 date-time, a date, or "${UNTIL_RECORD_CHANGES}"`,
      ),
  }),
  z.strictObject({ accepted: z.literal(false), note: z.string().max(RISK_NOTE_MAX).optional() }),
]);

/** POST /api/keys: a name that says where the key is used. */
export const createApiKeySchema = z.strictObject({
  name: z
    .string({ error: (issue) => (issue.code === 'invalid_type' ? 'Give the key a name' : undefined) })
    .trim()
    .min(1, 'Give the key a name')
    .max(API_KEY_NAME_MAX),
});

export const createWorkspaceSchema = z.strictObject({
  name: z.string().trim().min(1, 'Give the workspace a name').max(WORKSPACE_NAME_MAX),
});

/** PATCH /api/workspaces/{id}: a new name, by the rules a name is given at creation. */
export const renameWorkspaceSchema = createWorkspaceSchema;

export const invitationSchema = z.strictObject({
  email: z.email({ error: 'Enter an e-mail address' }).max(254),
  role: z.enum(INVITABLE_ROLES),
});

/** PATCH of a member: their role (members' managers), or their own e-mail alerts (each member). */
export const memberUpdateSchema = z
  .strictObject({ role: z.enum(WORKSPACE_ROLES).optional(), alertsEmail: z.boolean().optional() })
  .refine(
    (body) => body.role !== undefined || body.alertsEmail !== undefined,
    'Give role, alertsEmail or both',
  );

export const acceptInvitationSchema = z.strictObject({ token: z.string().min(1).max(200) });

/** GET /api/workspaces/{id}/activity: a page, `before` the previous page's nextBefore. */
export const activityQuerySchema = z.strictObject({
  before: z
    .string()
    .regex(ACTIVITY_CURSOR, 'must be the nextBefore of the previous page')
    .transform((value) => {
      const [, at, id] = ACTIVITY_CURSOR.exec(value) as unknown as [string, string, string];
      return { at, id };
    })
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

const integrationLabel = z.string().trim().min(1).max(80);
const integrationMinStatus = z.enum(FINDING_STATUSES).default(DEFAULT_INTEGRATION_MIN_STATUS);
/** A credential as pasted: trimmed, printable ASCII, as every service's tokens are. */
const token = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(/^[\x21-\x7e]+$/, 'must be a token of plain ASCII, without spaces');

const jiraSiteUrl = z
  .string()
  .trim()
  .max(200)
  .refine(
    (text) => /^https?:\/\/[^/?#@\s]+\/?$/i.test(text),
    'must be the site’s address, https://your-site.atlassian.net',
  );
const jiraProjectKey = z
  .string()
  .trim()
  .regex(/^[A-Z][A-Z0-9_]{0,19}$/, 'must be a project key such as OPS');
const jiraCredentials = z.strictObject({
  email: z
    .string()
    .trim()
    .min(3)
    .max(254)
    .regex(/^[^\s@]+@[^\s@]+$/, 'must be an e-mail address'),
  apiToken: token(300),
});

/**
 * A GitHub repository as people paste it: `owner/name`, or its address (`https://github.com/owner/name`,
 * with `.git` or a trailing slash, or a page inside it) read as `owner/name`.
 */
export function githubRepository(value: string): string {
  const address = /^(?:https?:\/\/)?(?:www\.)?github\.com\/([^/\s]+)\/([^/\s?#]+)(?:[/?#].*)?$/i.exec(value);
  const repository = address ? `${address[1]}/${address[2]}` : value.replace(/\/+$/, '');
  return repository.replace(/\.git$/i, '');
}

/** Each service's credential: what POST takes with its kind, and PATCH takes to replace it. */
export const integrationCredentialSchemas = {
  pagerduty: z.strictObject({ routingKey: token(64) }),
  github: z.strictObject({ token: token(255) }),
  jira: jiraCredentials,
  linear: z.strictObject({ apiKey: token(255) }),
} as const;

/** POST /api/integrations: which service, how it is labelled, the least status that files, and its settings and credential. */
export const createIntegrationSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('pagerduty'),
    label: integrationLabel.optional(),
    minStatus: integrationMinStatus,
    settings: z.strictObject({}).default({}),
    credentials: integrationCredentialSchemas.pagerduty,
  }),
  z.strictObject({
    kind: z.literal('github'),
    label: integrationLabel.optional(),
    minStatus: integrationMinStatus,
    settings: z.strictObject({
      repository: z
        .string()
        .trim()
        .transform(githubRepository)
        .pipe(
          z
            .string()
            .regex(
              /^[A-Za-z0-9-]{1,39}\/[A-Za-z0-9._-]{1,100}$/,
              'must be owner/name, or the repository’s address on github.com',
            ),
        ),
    }),
    credentials: integrationCredentialSchemas.github,
  }),
  z.strictObject({
    kind: z.literal('jira'),
    label: integrationLabel.optional(),
    minStatus: integrationMinStatus,
    settings: z.strictObject({
      siteUrl: jiraSiteUrl,
      projectKey: jiraProjectKey,
      issueType: z.string().trim().min(1).max(60),
      doneTransition: z.string().trim().min(1).max(60),
    }),
    credentials: integrationCredentialSchemas.jira,
  }),
  z.strictObject({
    kind: z.literal('linear'),
    label: integrationLabel.optional(),
    minStatus: integrationMinStatus,
    settings: z.strictObject({ teamId: z.string().trim().min(1).max(64) }),
    credentials: integrationCredentialSchemas.linear,
  }),
]);

/** POST /api/integrations/jira/choices: the site and credential to ask, and the project whose choices are wanted. */
export const jiraChoicesSchema = z.strictObject({
  siteUrl: jiraSiteUrl,
  credentials: jiraCredentials,
  projectKey: jiraProjectKey.optional(),
});

/**
 * PATCH /api/integrations/{id}: a new label, least status or credential (one of its service's kind,
 * checked with the service before it replaces the old). The service and its settings stay: the
 * tickets already filed are found again where they are.
 */
/** Re-enables a disabled connection of any kind: `{ "enabled": true }`, alone or beside a kind's own changes. */
export const enabledField = z.literal(true, { error: CONNECTION_MESSAGES.enableOnly });

export const updateIntegrationSchema = z
  .strictObject({
    enabled: enabledField.optional(),
    label: integrationLabel.optional(),
    minStatus: z.enum(FINDING_STATUSES).optional(),
    credentials: z
      .union([
        integrationCredentialSchemas.pagerduty,
        integrationCredentialSchemas.github,
        integrationCredentialSchemas.jira,
        integrationCredentialSchemas.linear,
      ])
      .optional(),
  })
  .refine(
    (body) =>
      body.enabled !== undefined ||
      body.label !== undefined ||
      body.minStatus !== undefined ||
      body.credentials !== undefined,
    'names nothing to change',
  );
