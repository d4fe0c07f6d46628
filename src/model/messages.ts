import type { z } from 'zod';

/**
 * The user-facing words of every refusal the API can answer, by its `code`: a title for a toast or
 * a dialog, and the message shown when the answer carries none of its own (the server's message,
 * naming the domain or the plan, wins when there is one). Texts the specification fixes are kept
 * word for word ('Authentication required', 'Access denied', 'Rate limit exceeded').
 * `ServiceError` and `ApiError` take only these codes, so a new refusal cannot go without words.
 */
export const REFUSALS = {
  VALIDATION_ERROR: { title: 'Check What You Entered', message: 'Some of what you entered cannot be used' },
  INVALID_JSON: { title: 'Check What You Entered', message: 'The request body is not valid JSON' },
  UNSUPPORTED_MEDIA_TYPE: {
    title: 'Check What You Entered',
    message: 'Send the request body as application/json',
  },
  PAYLOAD_TOO_LARGE: { title: 'Too Long', message: 'That is more text than this form takes' },
  AUTH_REQUIRED: { title: 'Authentication Failed', message: 'Authentication required' },
  SESSION_EXPIRED: { title: 'Authentication Failed', message: 'Authentication required' },
  TOKEN_EXPIRED: { title: 'Authentication Failed', message: 'Authentication required' },
  INVALID_TOKEN: { title: 'Authentication Failed', message: 'Authentication required' },
  ACCOUNT_DELETED: { title: 'Account Deleted', message: 'This account has been deleted' },
  AUTH_NOT_CONFIGURED: { title: 'Sign-in Unavailable', message: 'Sign-in is not configured on this server' },
  AUTH_UNAVAILABLE: {
    title: 'Sign-in Unavailable',
    message: 'The sign-in service is unavailable. Please try again shortly.',
  },
  API_KEY_REQUIRED: { title: 'Authentication Failed', message: 'Authentication required' },
  INVALID_API_KEY: { title: 'Authentication Failed', message: 'Authentication required' },
  API_KEY_REVOKED: { title: 'Authentication Failed', message: 'Authentication required' },
  ACCESS_DENIED: { title: 'Access Denied', message: 'Access denied' },
  ROLE_REQUIRED: { title: 'Access Denied', message: 'Your role in this workspace does not allow this' },
  OWN_ALERTS_ONLY: { title: 'Access Denied', message: 'Each member chooses their own e-mail alerts' },
  WRONG_ACCOUNT: {
    title: 'Wrong Account',
    message: 'This invitation was sent to another e-mail address: sign in with that address to accept it',
  },
  EMAIL_NOT_VERIFIED: {
    title: 'E-mail Not Verified',
    message: 'Only an e-mail address your sign-in provider has verified accepts an invitation',
  },
  PLAN_REQUIRED: { title: 'Upgrade Needed', message: 'Your plan does not include this' },
  RATE_LIMITED: { title: 'Rate Limited', message: 'Rate limit exceeded' },
  NOT_FOUND: { title: 'Not Found', message: 'It is no longer there: it may have been removed' },
  USER_NOT_FOUND: { title: 'Not Found', message: 'No such user' },
  INVITATION_GONE: {
    title: 'Invitation Gone',
    message: 'This invitation has expired, was already used, or was withdrawn',
  },
  INVITATION_NOT_FOUND: {
    title: 'Invitation Not Found',
    message: 'No invitation waits at this link: it has expired, was already used, or was withdrawn',
  },
  DOMAIN_EXISTS: { title: 'Already Added', message: 'This domain is already in your list' },
  DOMAIN_LIMIT: { title: 'Domain Limit Reached', message: 'Your plan has no room for another domain' },
  DOMAIN_NOT_VERIFIED: { title: 'Domain Not Verified', message: 'Verify that you own the domain first' },
  DOMAIN_PAUSED: { title: 'Monitoring Paused', message: 'Monitoring of this domain is paused' },
  OWNERSHIP_NOT_FOUND: {
    title: 'Ownership Record Missing',
    message: 'The TXT record that proves you own this domain is gone: add it back and verify again',
  },
  PLAN_LIMIT: { title: 'Beyond Your Plan', message: "This domain is beyond your plan's number of domains" },
  QUOTA_EXCEEDED: {
    title: 'Daily Scans Used',
    message: 'You have used all the scans your plan has for today',
  },
  SCAN_IN_PROGRESS: { title: 'Already Scanning', message: 'A scan of this domain is already running' },
  SCAN_FINISHED: { title: 'Scan Already Ended', message: 'This scan has already ended' },
  SCANNING_UNAVAILABLE: { title: 'Scanning Unavailable', message: 'Scanning is not running on this server' },
  INVENTORY_TOO_LARGE: {
    title: 'Zone Too Large',
    message: 'The zone holds more records than DangleWatch keeps',
  },
  DNS_CONNECTIONS_UNAVAILABLE: {
    title: 'DNS Connections Unavailable',
    message: 'DNS connections are not set up on this server',
  },
  PROVIDER_REFUSED: { title: 'Provider Refused', message: 'Your DNS provider refused the credential' },
  PROVIDER_UNAVAILABLE: {
    title: 'Provider Unavailable',
    message: 'Your DNS provider could not be reached; try again shortly',
  },
  SYNC_UNAVAILABLE: { title: 'Sync Unavailable', message: 'Zone syncs are not running on this server' },
  CLOUD_ACCOUNTS_UNAVAILABLE: {
    title: 'Cloud Accounts Unavailable',
    message: 'Cloud accounts are not set up on this server',
  },
  CLOUD_REFUSED: { title: 'Cloud Refused', message: 'The cloud refused the credential' },
  CLOUD_UNAVAILABLE: {
    title: 'Cloud Unavailable',
    message: 'The cloud could not be reached; try again shortly',
  },
  WORKSPACE_LIMIT: {
    title: 'Workspace Limit Reached',
    message: 'Your plan has no room for another team workspace',
  },
  MEMBER_LIMIT: {
    title: 'Member Limit Reached',
    message: "The workspace's plan has no room for another member",
  },
  PERSONAL_WORKSPACE: {
    title: 'Personal Workspace',
    message: 'A personal workspace is yours alone: create a team workspace to work with others',
  },
  ALREADY_MEMBER: { title: 'Already a Member', message: 'This person is already a member of this workspace' },
  LAST_OWNER: {
    title: 'Owner Needed',
    message: 'A workspace needs an owner: make another member owner first',
  },
  TEAM_WORKSPACES_OWNED: {
    title: 'Hand Over First',
    message: 'You are the only owner of team workspaces where others work: hand them over first',
  },
  API_KEY_LIMIT: { title: 'Key Limit Reached', message: 'Revoke an API key you no longer use first' },
  WEBHOOK_LIMIT: { title: 'Webhook Limit Reached', message: 'Remove a webhook you no longer use first' },
  INTEGRATION_LIMIT: {
    title: 'Integration Limit Reached',
    message: 'Remove an integration you no longer use first',
  },
  DNS_CONNECTION_LIMIT: {
    title: 'Connection Limit Reached',
    message: 'Remove a DNS connection you no longer use first',
  },
  CLOUD_ACCOUNT_LIMIT: {
    title: 'Cloud Account Limit Reached',
    message: 'Remove a cloud account you no longer use first',
  },
  CONNECTION_DISABLED: {
    title: 'Disabled',
    message: 'This connection is disabled: an admin re-enables it first',
  },
  WEBHOOK_DISABLED: {
    title: 'Webhook Disabled',
    message: 'This webhook is disabled: re-enable it to send a test',
  },
  INTEGRATION_REFUSED: {
    title: 'Not Connected',
    message: 'The service refused the credential or the settings: nothing was stored',
  },
  INTEGRATION_UNREACHABLE: {
    title: 'Service Unavailable',
    message: 'The service did not answer as it should: try again in a moment (nothing was stored)',
  },
  INTEGRATIONS_UNAVAILABLE: {
    title: 'Integrations Unavailable',
    message: 'Integrations are not set up on this server',
  },
  WEBHOOKS_UNAVAILABLE: {
    title: 'Webhooks Unavailable',
    message: 'Webhook delivery is not running on this server',
  },
  ALREADY_SUBSCRIBED: { title: 'Already Subscribed', message: 'You are already subscribed' },
  NO_SUBSCRIPTION: { title: 'No Subscription', message: 'You have no subscription to cancel' },
  NO_BILLING_ACCOUNT: {
    title: 'No Billing Account',
    message: 'You have no billing account yet: choose a plan first',
  },
  SUBSCRIPTION_ACTIVE: { title: 'Subscription Active', message: 'Please cancel your subscription first' },
  PLAN_NOT_FOR_SALE: { title: 'Plan Not for Sale', message: 'This plan is not sold on this server' },
  SERVER_PLAN: {
    title: 'Plan Set by the Server',
    message: 'This server sells no plans: every workspace has the plan whoever runs it set',
  },
  BILLING_NOT_CONFIGURED: {
    title: 'Billing Unavailable',
    message: 'Billing is not configured on this server',
  },
  BILLING_UNAVAILABLE: {
    title: 'Billing Unavailable',
    message: 'Stripe could not be reached; please try again',
  },
  INVALID_SIGNATURE: {
    title: 'Invalid Signature',
    message: 'The Stripe signature does not match this event',
  },
  SERVICE_UNAVAILABLE: { title: 'Service Error', message: 'Service temporarily unavailable' },
  INTERNAL_ERROR: { title: 'Unexpected Error', message: 'Something went wrong on our side' },
} as const satisfies Record<string, { title: string; message: string }>;

export type RefusalCode = keyof typeof REFUSALS;

export function isRefusalCode(code: unknown): code is RefusalCode {
  return typeof code === 'string' && Object.hasOwn(REFUSALS, code);
}

/** Refusals of what was typed that no schema or service owns alone. */
export const INPUT_MESSAGES = {
  /** A provider credential goes into an HTTP header, which carries only ASCII. */
  notAscii:
    'is not plain ASCII: tokens are plain ASCII, so a character such as a curly quote or a non-breaking space came with the copy. Copy it again from your provider',
  bodyTooLarge: (kilobytes: number) =>
    `That is more text than this form takes: at most ${countOf(kilobytes * 1024, 'character')} in all`,
} as const;

/** QUOTA_EXCEEDED: the day's scans of the plan are used; `max` is the plan's scans a day. */
export function scanQuotaMessage(max: number, planName: string): string {
  const used = max === 1 ? 'the 1 scan' : `all ${countOf(max, 'scan')}`;
  return `You have used ${used} of the ${planName} plan for today. The quota resets at midnight UTC; consider upgrading your plan.`;
}

/** '1 scan', '3 scans': a count with its noun, singular or plural as English has it. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
}

/** What a request's fields are called on screen, by the field's key (the last part of its path). */
const FIELD_LABELS: Record<string, string> = {
  apiToken: 'The API token',
  token: 'The token',
  accessKeyId: 'The access key ID',
  secretAccessKey: 'The secret access key',
  serviceAccountJson: 'The service-account key',
  displayName: 'The display name',
  email: 'The e-mail address',
  url: 'The URL',
  note: 'The note',
  name: 'The name',
  label: 'The label',
  domain: 'The domain',
  role: 'The role',
  settings: 'The settings object',
  planId: 'The plan',
  successUrl: 'The success URL',
  cancelUrl: 'The cancel URL',
};

/** A field in words: its label, or its key spelled out ('scanFrequency' → 'The scan frequency'). */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const key = [...path]
    .reverse()
    .find((part): part is string => typeof part === 'string' && !/^\d+$/.test(part));
  if (key === undefined) return 'The request';
  if (Object.hasOwn(FIELD_LABELS, key)) return FIELD_LABELS[key] as string;
  return `The ${key.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`).replace(/_/g, ' ')}`;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

/**
 * zod's own messages ('Too big: expected string to have <=4096 characters') in words: what the
 * field must be, said after its label. A schema's own message wins over these (zod asks this map
 * only where the schema gave none).
 */
export function issueInWords(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'too_big':
      if (issue.origin === 'string')
        return `is too long: at most ${countOf(Number(issue.maximum), 'character')}`;
      if (issue.origin === 'array')
        return `has too many entries: at most ${countOf(Number(issue.maximum), 'entry', 'entries')}`;
      return `must be at most ${Number(issue.maximum).toLocaleString('en-US')}`;
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1
          ? 'is required'
          : `is too short: at least ${countOf(Number(issue.minimum), 'character')}`;
      if (issue.origin === 'array')
        return `needs at least ${countOf(Number(issue.minimum), 'entry', 'entries')}`;
      return `must be at least ${Number(issue.minimum).toLocaleString('en-US')}`;
    case 'invalid_type':
      return issue.input === undefined
        ? 'is required'
        : `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'email'
        ? 'must be an e-mail address'
        : issue.format === 'url'
          ? 'must be a URL'
          : 'is not in the expected format';
    case 'unrecognized_keys':
      return `does not take ${issue.keys.map((key) => `“${key}”`).join(', ')}`;
    default:
      return undefined;
  }
}

const PREDICATE = /^(is|are|must|may|has|needs|does) /;

/**
 * One sentence for a refused field: a schema's sentence as it is, a predicate ('is too long: …')
 * after the field's label, any other text as it is. The path itself stays in the answer's `details`, for programs.
 */
export function fieldMessage(path: readonly PropertyKey[], message: string): string {
  return PREDICATE.test(message) ? `${fieldLabel(path)} ${message}` : message;
}
