import { access, readFile } from 'node:fs/promises';
import { PROVIDER_IDS, type ProviderId } from '../connectors/dns/provider.ts';
import type { AllowPrivate } from '../connectors/http/address-guard.ts';
import { fieldMessage } from '../model/messages.ts';
import { parseAxfrServer, readAxfr } from '../scanner/zone/axfr.ts';
import type { DnsProvider } from '../scanner/zone/providers/provider.ts';
import type { ZoneRecord } from '../scanner/zone/record.ts';
import { readZoneFile, ZoneFileError } from '../scanner/zone/zone-file.ts';

/** `parseArgs` options of the zone sources. */
export const ZONE_SOURCE_OPTIONS = {
  'zone-file': { type: 'string' },
  axfr: { type: 'string' },
  provider: { type: 'string' },
} as const;

export const ZONE_SOURCE_FLAGS = Object.keys(ZONE_SOURCE_OPTIONS) as (keyof typeof ZONE_SOURCE_OPTIONS)[];

export const ZONE_SOURCE_USAGE = `    [--zone-file FILE | --axfr HOST[:PORT] | --provider ${PROVIDER_IDS.join('|')}]`;

export const ZONE_SOURCE_HELP = `The zone's own records are scanned beside what discovery finds, from one source at most:
  --zone-file FILE      a BIND master file of the domain ($INCLUDE is refused)
  --axfr HOST[:PORT]    a zone transfer (AXFR over TCP) from that server
  --provider NAME       the zone read from a DNS provider's API, read calls only, with the
                        credential from the environment, never from the command line:
                          cloudflare    CLOUDFLARE_API_TOKEN (Zone:Read, DNS:Read)
                          route53       AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY
                          digitalocean  DIGITALOCEAN_TOKEN (read scope)
                          gcloud        GOOGLE_APPLICATION_CREDENTIALS, the path of a
                                        service-account JSON key (roles/dns.reader)
                        API base URLs: CLOUDFLARE_API_URL, ROUTE53_ENDPOINT,
                        DIGITALOCEAN_API_URL, GOOGLE_DNS_API_URL, GOOGLE_OAUTH_TOKEN_URL
`;

/** A zone source the command line asks for but cannot have: the message says what to fix. */
export class ZoneSourceError extends Error {}

type Values = Partial<Record<keyof typeof ZONE_SOURCE_OPTIONS, string>>;

function required(env: NodeJS.ProcessEnv, provider: string, ...names: string[]) {
  const missing = names.filter((name) => !env[name]?.trim());
  if (missing.length > 0)
    throw new ZoneSourceError(
      `--provider ${provider} reads its credential from ${missing.join(' and ')}, which is not set`,
    );
  return names.map((name) => (env[name] as string).trim());
}

function readWith<C>(provider: DnsProvider<C>, raw: unknown, zone: string, env: NodeJS.ProcessEnv) {
  const parsed = provider.credentials.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const why = issue
      ? fieldMessage(issue.path, issue.message)
      : 'The credential in the environment is not valid';
    throw new ZoneSourceError(`--provider ${provider.id}: ${why}`);
  }
  return provider.readZone(parsed.data, zone, { env });
}

/**
 * The provider's records, with its credential from the environment variables its own tools use.
 * The SDKs load only here: a scan without --provider does not pay for them.
 */
async function providerRecords(id: ProviderId, zone: string, env: NodeJS.ProcessEnv) {
  const { providers } = await import('../scanner/zone/providers/index.ts');
  switch (id) {
    case 'cloudflare': {
      const [apiToken] = required(env, id, 'CLOUDFLARE_API_TOKEN');
      return readWith(providers.cloudflare, { apiToken }, zone, env);
    }
    case 'route53': {
      const [accessKeyId, secretAccessKey] = required(env, id, 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY');
      return readWith(providers.route53, { accessKeyId, secretAccessKey }, zone, env);
    }
    case 'digitalocean': {
      const [token] = required(env, id, 'DIGITALOCEAN_TOKEN');
      return readWith(providers.digitalocean, { token }, zone, env);
    }
    case 'gcloud': {
      const [path] = required(env, id, 'GOOGLE_APPLICATION_CREDENTIALS');
      let serviceAccountJson: string;
      try {
        serviceAccountJson = await readFile(path as string, 'utf8');
      } catch (error) {
        throw new ZoneSourceError(
          `cannot read GOOGLE_APPLICATION_CREDENTIALS file '${path}': ${(error as NodeJS.ErrnoException).code ?? error}`,
        );
      }
      return readWith(providers.gcloud, { serviceAccountJson }, zone, env);
    }
  }
}

/**
 * A zone file's errors name the file as well as the line; records outside the zone are skipped
 * by the parser, and the command says how many, so a file of the wrong domain does not pass unseen.
 */
async function* namedFile(
  path: string,
  zone: string,
  warn: (line: string) => void,
): AsyncGenerator<ZoneRecord> {
  let outside = 0;
  let first = 0;
  try {
    yield* readZoneFile(path, {
      zone,
      onOutside: (_record, line) => {
        outside++;
        first ||= line;
      },
    });
  } catch (error) {
    if (error instanceof ZoneFileError) throw new ZoneSourceError(`--zone-file ${path}: ${error.message}`);
    throw error;
  }
  if (outside > 0)
    warn(
      `--zone-file ${path}: ${outside} record${outside > 1 ? 's' : ''} outside ${zone} skipped (the first at line ${first})`,
    );
}

/**
 * The zone records the command line asks for, as a stream the engine reads while it scans; a
 * source that fails while streaming fails the scan with the source's own message.
 */
export async function zoneRecordsFrom(
  values: Values,
  zone: string,
  settings: { allowPrivate: AllowPrivate; timeoutMs?: number; warn: (line: string) => void },
  env: NodeJS.ProcessEnv = process.env,
): Promise<AsyncIterable<ZoneRecord> | undefined> {
  const given = ZONE_SOURCE_FLAGS.filter((flag) => values[flag] !== undefined);
  if (given.length > 1)
    throw new ZoneSourceError(`give one zone source at most, not --${given.join(' and --')}`);
  if (values['zone-file'] !== undefined) {
    const path = values['zone-file'];
    try {
      await access(path);
    } catch (error) {
      throw new ZoneSourceError(
        `cannot read --zone-file '${path}': ${(error as NodeJS.ErrnoException).code ?? error}`,
      );
    }
    return namedFile(path, zone, settings.warn);
  }
  if (values.axfr !== undefined) {
    let server: ReturnType<typeof parseAxfrServer>;
    try {
      server = parseAxfrServer(values.axfr);
    } catch (error) {
      throw new ZoneSourceError(`--axfr: ${(error as Error).message}`);
    }
    return readAxfr({ zone, server, allowPrivate: settings.allowPrivate, timeoutMs: settings.timeoutMs });
  }
  if (values.provider !== undefined) {
    const id = values.provider as ProviderId;
    if (!PROVIDER_IDS.includes(id))
      throw new ZoneSourceError(
        `--provider must be one of ${PROVIDER_IDS.join(', ')}, got '${values.provider}'`,
      );
    return providerRecords(id, zone, env);
  }
  return undefined;
}
