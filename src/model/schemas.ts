import { z } from 'zod';
import { API_KEY_NAME_MAX } from './api-access.ts';
import { SCANS_MAX_PAGE_SIZE, SCANS_PAGE_SIZE } from './constants.ts';
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

export const findingQuerySchema = z.strictObject({
  domain: z.string().max(300).optional(),
  state: z.enum(FINDING_STATES).default('all'),
});

/** Accept a finding as a risk (with a note saying why), or take the acceptance back. */
export const acceptRiskSchema = z.strictObject({
  accepted: z.boolean(),
  note: z
    .string()
    .trim()
    .max(500)
    .refine((text) => !CONTROL_CHARACTERS.test(text), 'must not hold control characters')
    .optional(),
});

/** POST /api/keys: a name that says where the key is used. */
export const createApiKeySchema = z.strictObject({
  name: z
    .string({ error: 'Give the key a name' })
    .trim()
    .min(1, 'Give the key a name')
    .max(API_KEY_NAME_MAX, `at most ${API_KEY_NAME_MAX} characters`),
});
