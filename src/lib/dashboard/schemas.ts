import { z } from 'zod';
import {
  type AlertSettings,
  FINDING_STATES,
  FINDING_STATUSES,
  SCAN_FREQUENCIES,
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
