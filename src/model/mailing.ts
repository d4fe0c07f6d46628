import { z } from 'zod';
import { EMAIL_PATTERN } from './email-pattern.ts';

export { EMAIL_PATTERN };

const MAILING_SOURCE_MAX = 64;

export const mailingSignupSchema = z.object({
  email: z
    .string({ error: 'email is required' })
    .trim()
    .max(254, 'email is too long')
    .regex(EMAIL_PATTERN, 'email must be a valid e-mail address'),
  source: z
    .string({ error: 'source is required' })
    .trim()
    .min(1, 'source is required')
    .max(MAILING_SOURCE_MAX, `source must be at most ${MAILING_SOURCE_MAX} characters`)
    .regex(/^[a-z0-9][a-z0-9_-]*$/i, 'source may contain only letters, digits, hyphens and underscores'),
  timestamp: z.iso.datetime({ offset: true, error: 'timestamp must be an ISO 8601 date-time' }).optional(),
});

export type MailingSignup = z.infer<typeof mailingSignupSchema>;
