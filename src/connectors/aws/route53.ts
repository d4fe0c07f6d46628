import {
  GetHostedZoneCommand,
  ListHostedZonesCommand,
  type ListHostedZonesCommandOutput,
  ListResourceRecordSetsCommand,
  type ListResourceRecordSetsCommandOutput,
  Route53Client,
} from '@aws-sdk/client-route-53';
import { z } from 'zod';
import {
  CALL_DEFAULTS,
  type credentialSchemas,
  type ProviderCallOptions,
  ProviderError,
  type ProviderFailure,
} from '../dns/provider.ts';

/** The API's maxima: 100 hosted zones and 300 record sets a call. */
const ZONES_PER_CALL = 100;
const RECORD_SETS_PER_CALL = 300;
const REFUSED_CODES = new Set([
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
  'AccessDenied',
  'AccessDeniedException',
  'UnrecognizedClientException',
  'ExpiredToken',
  'IncompleteSignature',
  'MissingAuthenticationToken',
]);

const hostedZones = z.object({
  HostedZones: z.array(
    z
      .object({
        Id: z.string().min(1),
        Name: z.string().min(1),
        Config: z.object({ PrivateZone: z.boolean().optional() }).loose().optional(),
      })
      .loose(),
  ),
  IsTruncated: z.boolean().optional(),
  NextMarker: z.string().optional(),
});
const recordSetsPage = z.object({
  ResourceRecordSets: z.array(
    z
      .object({
        Name: z.string().min(1),
        Type: z.string().min(1),
        TTL: z.number().int().nonnegative().optional(),
        ResourceRecords: z.array(z.object({ Value: z.string() }).loose()).optional(),
        AliasTarget: z
          .object({ DNSName: z.string().min(1) })
          .loose()
          .optional(),
      })
      .loose(),
  ),
  IsTruncated: z.boolean().optional(),
  NextRecordName: z.string().optional(),
  NextRecordType: z.string().optional(),
  NextRecordIdentifier: z.string().optional(),
});

export type Credentials = z.infer<typeof credentialSchemas.route53>;

function client(credentials: Credentials, options: ProviderCallOptions | undefined) {
  const endpoint = options?.baseUrl ?? (options?.env ?? process.env).ROUTE53_ENDPOINT;
  if (endpoint !== undefined && !z.url({ protocol: /^https?$/ }).safeParse(endpoint).success)
    throw new Error(`ROUTE53_ENDPOINT must be an http(s) URL, got '${endpoint}'`);
  const timeoutMs = options?.timeoutMs ?? CALL_DEFAULTS.timeoutMs;
  return new Route53Client({
    region: 'us-east-1',
    ...(endpoint ? { endpoint } : {}),
    credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
    maxAttempts: (options?.maxRetries ?? CALL_DEFAULTS.maxRetries) + 1,
    requestHandler: { requestTimeout: timeoutMs, connectionTimeout: timeoutMs, throwOnRequestTimeout: true },
  });
}

/** The SDK's errors as `ProviderError`s with the service's own code and message. */
function translate(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const e = error as Error & { $metadata?: { httpStatusCode?: number }; Code?: string };
  const status = e.$metadata?.httpStatusCode;
  const code = e.name;
  let failure: ProviderFailure;
  if (REFUSED_CODES.has(code)) failure = 'credentials';
  else if (code === 'NoSuchHostedZone') failure = 'not-found';
  else if (status === undefined || status === 429 || status >= 500 || code === 'Throttling')
    failure = 'unavailable';
  else failure = 'malformed';
  if (failure === 'malformed' && status !== undefined && status < 300)
    return new ProviderError('route53', failure, `Route 53 sent an unexpected answer: ${e.message}`);
  return new ProviderError('route53', failure, `${code}: ${e.message}`);
}

function checked<T>(schema: z.ZodType<T>, output: unknown): T {
  const parsed = schema.safeParse(output);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProviderError(
      'route53',
      'malformed',
      `Route 53 sent an unexpected answer (${issue?.path.join('.')}: ${issue?.message})`,
    );
  }
  return parsed.data;
}

/** Route 53 writes `*` and other unusual octets of a name as `\\ooo` (octal); the name as it reads. */
export function decodeName(name: string) {
  return name.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/** The key's public hosted zones, names decoded (as Route 53 spells them: any case, a final dot). */
export async function publicHostedZones(
  credentials: Credentials,
  options: ProviderCallOptions | undefined,
): Promise<{ id: string; name: string }[]> {
  const api = client(credentials, options);
  try {
    const zones: { id: string; name: string }[] = [];
    let marker: string | undefined;
    do {
      let output: ListHostedZonesCommandOutput;
      try {
        output = await api.send(new ListHostedZonesCommand({ Marker: marker, MaxItems: ZONES_PER_CALL }), {
          abortSignal: options?.signal,
        });
      } catch (error) {
        throw translate(error);
      }
      const page = checked(hostedZones, output);
      // A private zone answers only inside its VPCs: nothing on the internet can dangle from it.
      for (const zone of page.HostedZones)
        if (!zone.Config?.PrivateZone) zones.push({ id: zone.Id, name: decodeName(zone.Name) });
      marker = page.IsTruncated ? page.NextMarker : undefined;
    } while (marker);
    return zones;
  } finally {
    api.destroy();
  }
}

/** One record set as Route 53 lists it. */
export type RecordSet = z.infer<typeof recordSetsPage>['ResourceRecordSets'][number];

/** Every record set of a hosted zone, page after page (by next record name, type and identifier). */
export async function* recordSets(
  credentials: Credentials,
  zoneId: string,
  options: ProviderCallOptions | undefined,
): AsyncGenerator<RecordSet> {
  const api = client(credentials, options);
  try {
    const maxItems = Math.min(options?.pageSize ?? RECORD_SETS_PER_CALL, RECORD_SETS_PER_CALL);
    let start: { StartRecordName?: string; StartRecordType?: string; StartRecordIdentifier?: string } = {};
    for (;;) {
      let output: ListResourceRecordSetsCommandOutput;
      try {
        output = await api.send(
          new ListResourceRecordSetsCommand({
            HostedZoneId: zoneId,
            MaxItems: maxItems,
            ...start,
          } as ConstructorParameters<typeof ListResourceRecordSetsCommand>[0]),
          { abortSignal: options?.signal },
        );
      } catch (error) {
        throw translate(error);
      }
      const page = checked(recordSetsPage, output);
      yield* page.ResourceRecordSets;
      if (!page.IsTruncated) return;
      if (!page.NextRecordName)
        throw new ProviderError(
          'route53',
          'malformed',
          'Route 53 sent a truncated page without NextRecordName',
        );
      const next = {
        StartRecordName: page.NextRecordName,
        StartRecordType: page.NextRecordType,
        StartRecordIdentifier: page.NextRecordIdentifier,
      };
      if (JSON.stringify(next) === JSON.stringify(start))
        throw new ProviderError('route53', 'malformed', 'Route 53 sent the same next record twice');
      start = next;
    }
  } finally {
    api.destroy();
  }
}

const delegationSet = z.object({
  DelegationSet: z.object({ NameServers: z.array(z.string().min(1)) }).loose(),
});

/** The name servers of a hosted zone's delegation set (`route53:GetHostedZone`). */
export async function delegationNameServers(
  credentials: Credentials,
  zoneId: string,
  options: ProviderCallOptions | undefined,
): Promise<string[]> {
  const api = client(credentials, options);
  try {
    let output: unknown;
    try {
      output = await api.send(new GetHostedZoneCommand({ Id: zoneId }), { abortSignal: options?.signal });
    } catch (error) {
      throw translate(error);
    }
    return checked(delegationSet, output).DelegationSet.NameServers;
  } finally {
    api.destroy();
  }
}
