import type { z } from 'zod';
import { ConnectorError } from '../../connectors/http/error.ts';
import type { RefusalCode } from '../../model/messages.ts';
import { ServiceError } from '../errors.ts';
import { parseInput } from '../validation.ts';
import type { ConnectionKind } from './kinds.ts';
import { type SecretsKey, seal, unseal } from './secrets.ts';

/** The kinds whose credential we hold sealed (a webhook's secret is our own). */
export type SealedKind = Exclude<ConnectionKind, 'webhook'>;

const CODES: Record<
  SealedKind,
  { unavailable: RefusalCode; notSetUp: string; refused: RefusalCode; unreachable: RefusalCode }
> = {
  dns: {
    unavailable: 'DNS_CONNECTIONS_UNAVAILABLE',
    notSetUp: 'DNS connections are not set up on this server',
    refused: 'PROVIDER_REFUSED',
    unreachable: 'PROVIDER_UNAVAILABLE',
  },
  cloud: {
    unavailable: 'CLOUD_ACCOUNTS_UNAVAILABLE',
    notSetUp: 'Cloud accounts are not set up on this server',
    refused: 'CLOUD_REFUSED',
    unreachable: 'CLOUD_UNAVAILABLE',
  },
  integration: {
    unavailable: 'INTEGRATIONS_UNAVAILABLE',
    notSetUp: 'Integrations are not set up on this server',
    refused: 'INTEGRATION_REFUSED',
    unreachable: 'INTEGRATION_UNREACHABLE',
  },
};

/** The sealing key, or the refusal that says why this server cannot hold credentials of `kind`. */
export function requireKey(secrets: SecretsKey | undefined, kind: SealedKind): Buffer {
  const codes = CODES[kind];
  if (!secrets) throw new ServiceError('unavailable', codes.unavailable, codes.notSetUp);
  // The missing key is the operator's to set (start-up logged how); the user hears only what it means to them.
  if (!secrets.key) throw new ServiceError('unavailable', codes.unavailable, codes.notSetUp);
  return secrets.key;
}

/** A credential as its provider's schema takes it (400 in the schema's words otherwise): named strings. */
export const parseCredential = (schema: z.ZodType, value: unknown): Record<string, string> =>
  parseInput(schema, value) as Record<string, string>;

/** The last four characters of the credential's identifying part: enough to tell two apart. */
export const credentialHint = (part: string | undefined): string => (part ?? '').slice(-4);

/**
 * What the seal authenticates besides the credential: the workspace (an integration's also its
 * service), so a ciphertext copied onto another workspace's row does not open there.
 */
const sealContext = (kind: SealedKind, workspaceId: string, service: string) =>
  kind === 'integration' ? `${workspaceId}:integration:${service}` : workspaceId;

/** Seals a credential for a row of `kind` in the workspace; `service` is the integration's kind. */
export const sealCredential = (
  key: Buffer,
  kind: SealedKind,
  row: { workspaceId: string; service: string },
  credentials: unknown,
): string => seal(key, JSON.stringify(credentials), sealContext(kind, row.workspaceId, row.service));

/** Opens the credential of a row of `kind`, for a call to its provider. */
export const openCredential = <T = Record<string, string>>(
  key: Buffer,
  kind: SealedKind,
  row: { workspaceId: string; service: string; credentialSealed: string },
): T => JSON.parse(unseal(key, row.credentialSealed, sealContext(kind, row.workspaceId, row.service))) as T;

/**
 * The provider check hook: runs `call` (a read the credential must pass before it is stored or
 * replaced) and turns the provider's failure into the API's words, the provider's own message and
 * never the credential. `failure` says what an error is: 'refused' (the credential or settings,
 * 400), 'unreachable' (down, slow or rate limiting, 502: try again), or undefined for an error
 * that is not the provider's, thrown as it is.
 */
export async function checkWithProvider<T>(
  kind: SealedKind,
  call: () => Promise<T>,
  failure: (error: unknown) => 'refused' | 'unreachable' | undefined,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const what = failure(error);
    if (!what || !(error instanceof Error)) throw error;
    const codes = CODES[kind];
    // The sentence is the message a person reads; the provider's own words go along as a detail.
    const details =
      error instanceof ConnectorError && error.detail
        ? [{ path: 'provider', message: error.detail }]
        : undefined;
    if (what === 'refused') throw new ServiceError('invalid', codes.refused, error.message, details);
    throw new ServiceError('upstream-failed', codes.unreachable, error.message, details);
  }
}
