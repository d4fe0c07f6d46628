import { createPrivateKey, sign } from 'node:crypto';
import { z } from 'zod';

/** Google's token endpoint: the only one a user's service-account key may lead us to. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

const serviceAccount = z.object({
  type: z.literal('service_account'),
  project_id: z.string().regex(/^[a-z][a-z0-9-]{4,61}[a-z0-9]$|^[a-z0-9.:-]{1,100}$/),
  client_email: z.email(),
  private_key: z.string().min(1),
  private_key_id: z.string().optional(),
  token_uri: z.string().optional(),
});
export type ServiceAccount = z.infer<typeof serviceAccount>;

export const tokenAnswer = z.object({ access_token: z.string().min(1), token_type: z.string().optional() });

/** Google OAuth's refusal of a token request, in its own words. */
export function tokenReason(body: unknown): string | undefined {
  const parsed = z.object({ error: z.string(), error_description: z.string().optional() }).safeParse(body);
  if (!parsed.success) return undefined;
  const { error, error_description } = parsed.data;
  return `Google OAuth: ${error}${error_description ? `: ${error_description}` : ''}`;
}

/**
 * The pasted service-account key, checked; `refused` throws the caller's own credential error. The
 * private key never appears in an error, and a key naming another token endpoint is refused: it
 * would lead us to post a signed assertion wherever the key says.
 */
export function serviceAccountFrom(
  keyJson: string,
  tokenUrl: string,
  refused: (message: string) => never,
): ServiceAccount {
  let json: unknown;
  try {
    json = JSON.parse(keyJson);
  } catch {
    refused('the service-account key is not JSON');
  }
  const parsed = serviceAccount.safeParse(json);
  if (!parsed.success)
    refused(`the service-account key lacks a valid ${parsed.error.issues[0]?.path.join('.') ?? 'field'}`);
  const sa = parsed.data as ServiceAccount;
  if (sa.token_uri !== undefined && sa.token_uri !== GOOGLE_TOKEN_URL && sa.token_uri !== tokenUrl)
    refused(`the key's token_uri is not Google's token endpoint (${GOOGLE_TOKEN_URL})`);
  return sa;
}

/** The form that trades a signed JWT (RS256, valid an hour) for an access token of the scopes given (space-separated). */
export function jwtBearerForm(
  sa: ServiceAccount,
  scope: string,
  tokenUrl: string,
  refused: (message: string) => never,
): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const header = { alg: 'RS256', typ: 'JWT', ...(sa.private_key_id ? { kid: sa.private_key_id } : {}) };
  const claims = { iss: sa.client_email, scope, aud: tokenUrl, iat: now, exp: now + 3600 };
  const unsigned = `${encode(header)}.${encode(claims)}`;
  let signature = '';
  try {
    signature = sign('RSA-SHA256', Buffer.from(unsigned), createPrivateKey(sa.private_key)).toString(
      'base64url',
    );
  } catch {
    refused("the key's private_key is not a usable RSA private key");
  }
  return new URLSearchParams({
    grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    assertion: `${unsigned}.${signature}`,
  }).toString();
}

/**
 * Every page of a Google list, following `nextPageToken`; `read` makes the call with the caller's
 * retries and errors. A token sent twice would loop for ever: `repeated` names that failure.
 */
export async function* googlePages<T extends { nextPageToken?: string }>(
  url: string,
  read: (url: string) => Promise<T>,
  repeated: () => Error,
): AsyncGenerator<T> {
  let pageToken: string | undefined;
  do {
    const next = new URL(url);
    if (pageToken) next.searchParams.set('pageToken', pageToken);
    const body = await read(next.toString());
    yield body;
    if (body.nextPageToken && body.nextPageToken === pageToken) throw repeated();
    pageToken = body.nextPageToken || undefined;
  } while (pageToken);
}
