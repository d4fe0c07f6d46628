import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { parseList } from '../scanner/discover/wordlist.ts';
import { parseServer } from '../scanner/dns/resolver.ts';
import { proofSettingsFromEnv } from '../scanner/proof/settings.ts';
import { parseDomain, scanDomain } from '../scanner/scan.ts';
import type { ScanOptions } from '../scanner/types.ts';
import { localFingerprints } from '../start/fingerprints.ts';
import {
  deliverReport,
  OUTPUT_OPTIONS,
  OUTPUT_USAGE,
  type OutputOptions,
  outputOptions,
} from './scan-output.ts';
import { progressBar } from './scan-progress.ts';
import { RemoteScanError, type RemoteScanRequest, scanThroughServer } from './scan-remote.ts';
import { localReport, remoteReport, type ScanReport } from './scan-report.ts';
import {
  ZONE_SOURCE_FLAGS,
  ZONE_SOURCE_HELP,
  ZONE_SOURCE_OPTIONS,
  ZONE_SOURCE_USAGE,
  ZoneSourceError,
  zoneRecordsFrom,
} from './zone-source.ts';

const USAGE = `Usage: danglewatch scan <domain> [output options] [--resolver HOST[:PORT]]... [--ct-url URL] [--rdap-url URL]
    [--no-discovery] [--no-ct] [--no-validation] [--wordlist FILE] [--subdomains FILE]
    [--certspotter-url URL] [--http-port N] [--https-port N] [--allow-private] [--concurrency N] [--timeout-ms N]
    [--max-names N] [--deadline-ms N]
${ZONE_SOURCE_USAGE}
       danglewatch scan <domain> --server URL [--key dw_…] [output options] [--no-discovery] [--no-ct] [--no-validation]

With --server, the scan runs on that DangleWatch server through its API (the domain must be one of
your verified domains there), with an API key from Settings → API, given with --key or in the
DANGLEWATCH_KEY environment variable.

${ZONE_SOURCE_HELP}
${OUTPUT_USAGE}
Exit code: 0 nothing failing the run, 1 findings that fail it, 2 the scan failed.
`;

/** The options that steer the local engine; a server scans with its own settings. */
const LOCAL_ONLY = [
  'resolver',
  'ct-url',
  'certspotter-url',
  'rdap-url',
  'wordlist',
  'subdomains',
  'http-port',
  'https-port',
  'allow-private',
  'concurrency',
  'timeout-ms',
  'max-names',
  'deadline-ms',
  ...ZONE_SOURCE_FLAGS,
] as const;

class UsageError extends Error {}

function integer(value: string | undefined, flag: string, min: number, max: number) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`);
  return n;
}

function url(value: string | undefined, flag: string) {
  if (value === undefined) return undefined;
  try {
    const parsed = new URL(value);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error();
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL, got '${value}'`);
  }
  return value;
}

async function listFile(path: string | undefined, flag: string) {
  if (path === undefined) return undefined;
  try {
    return parseList(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UsageError(
      `cannot read ${flag} file '${path}': ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
}

type ScanRequest =
  | { domain: string; output: OutputOptions; options: ScanOptions }
  | {
      domain: string;
      output: OutputOptions;
      server: string;
      key: string;
      options: RemoteScanRequest['options'];
    };

async function parseScanArgs(args: string[]): Promise<ScanRequest | 'help'> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    throw new UsageError(
      ((error as Error).message.split('\n')[0] ?? 'bad arguments').replace(/\. To specify.*$/, ''),
    );
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length !== 1) throw new UsageError('give exactly one domain to scan');
  let domain: string;
  try {
    domain = parseDomain(positionals[0] as string);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  let output: OutputOptions;
  try {
    output = await outputOptions(values);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.server !== undefined) {
    const server = url(values.server, '--server') as string;
    // The API key travels in every request: over plain HTTP anyone on the path could take it.
    if (new URL(server).protocol !== 'https:' && !isLoopback(new URL(server).hostname)) {
      throw new UsageError('--server must be an https:// URL (http:// only for a server on this machine)');
    }
    const local = LOCAL_ONLY.find((flag) => values[flag] !== undefined);
    if (local)
      throw new UsageError(`--${local} cannot be used with --server: the server scans with its own settings`);
    const key = values.key ?? process.env.DANGLEWATCH_KEY;
    if (!key) throw new UsageError('--server needs an API key: give --key dw_… or set DANGLEWATCH_KEY');
    const options: RemoteScanRequest['options'] = {
      ...(values['no-discovery'] ? { skip_discovery: true } : {}),
      ...(values['no-ct'] ? { use_certificate_transparency: false } : {}),
      ...(values['no-validation'] ? { use_multi_stage_validation: false } : {}),
    };
    return { domain, output, server, key, options };
  }
  if (values.key !== undefined) throw new UsageError('--key is for scans through a server (--server URL)');
  const resolvers = (values.resolver ?? []).map((r) => {
    try {
      return parseServer(r);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  });
  const options: ScanOptions = {
    resolvers: resolvers.length > 0 ? resolvers : undefined,
    ctUrl: url(values['ct-url'], '--ct-url'),
    certspotterUrl: url(values['certspotter-url'], '--certspotter-url'),
    rdapUrl: url(values['rdap-url'], '--rdap-url'),
    discovery: !values['no-discovery'],
    ct: !values['no-ct'],
    validation: !values['no-validation'],
    wordlist: await listFile(values.wordlist, '--wordlist'),
    subdomains: await listFile(values.subdomains, '--subdomains'),
    httpPort: integer(values['http-port'], '--http-port', 1, 65535),
    httpsPort: integer(values['https-port'], '--https-port', 1, 65535),
    allowPrivate: values['allow-private'] ?? false,
    concurrency: integer(values.concurrency, '--concurrency', 1, 2000),
    timeoutMs: integer(values['timeout-ms'], '--timeout-ms', 50, 600_000),
    maxNames: integer(values['max-names'], '--max-names', 1, 1_000_000),
    deadlineMs: integer(values['deadline-ms'], '--deadline-ms', 1000, 24 * 3_600_000),
  };
  try {
    options.fingerprints = localFingerprints(process.env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  try {
    options.zoneRecords = await zoneRecordsFrom(values, domain, {
      allowPrivate: options.allowPrivate ?? false,
      timeoutMs: options.timeoutMs,
      warn: (line) => process.stderr.write(`danglewatch scan: ${line}\n`),
    });
  } catch (error) {
    throw error instanceof ZoneSourceError ? new UsageError(error.message) : error;
  }
  for (const name of options.subdomains ?? []) {
    if (!/^[a-z0-9_.-]+$/.test(name)) throw new UsageError(`--subdomains: '${name}' is not a host name`);
  }
  // The built-in list and the defaults apply when a flag is absent.
  for (const key of Object.keys(options) as (keyof ScanOptions)[]) {
    if (options[key] === undefined) delete options[key];
  }
  return { domain, output, options };
}

/** localhost, 127.0.0.0/8 and ::1: a server on this machine, where plain HTTP stays on the machine. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)
  );
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      ...OUTPUT_OPTIONS,
      resolver: { type: 'string', multiple: true },
      'ct-url': { type: 'string' },
      'certspotter-url': { type: 'string' },
      'rdap-url': { type: 'string' },
      'no-discovery': { type: 'boolean' },
      'no-ct': { type: 'boolean' },
      'no-validation': { type: 'boolean' },
      wordlist: { type: 'string' },
      subdomains: { type: 'string' },
      'http-port': { type: 'string' },
      'https-port': { type: 'string' },
      'allow-private': { type: 'boolean' },
      concurrency: { type: 'string' },
      'timeout-ms': { type: 'string' },
      'max-names': { type: 'string' },
      'deadline-ms': { type: 'string' },
      server: { type: 'string' },
      key: { type: 'string' },
      ...ZONE_SOURCE_OPTIONS,
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** What the engine takes besides the flags: tests shorten the validation delay, which no flag sets. */
export type EngineSettings = Pick<ScanOptions, 'validationDelayMs'>;

/** `danglewatch scan`: exit 0 without failing findings, 1 with them, 2 when the scan could not run. */
export async function scan(args: string[], engine: EngineSettings = {}): Promise<number> {
  let request: Awaited<ReturnType<typeof parseScanArgs>>;
  try {
    request = await parseScanArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`danglewatch scan: ${error.message}\n`);
    return 2;
  }
  if (request === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const { output } = request;
  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error('cancelled'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const onProgress = process.stderr.isTTY && !output.quiet ? progressBar(process.stderr) : undefined;
  try {
    let report: ScanReport;
    if ('server' in request) {
      try {
        const done = await scanThroughServer({
          ...request,
          signal: controller.signal,
          onProgress,
          log: (line) => {
            if (!output.quiet) process.stderr.write(`danglewatch scan: ${line}\n`);
          },
        });
        report = remoteReport(done, request.server);
      } catch (error) {
        if (!(error instanceof RemoteScanError)) throw error;
        process.stderr.write(`danglewatch scan: ${request.server}: ${error.message}\n`);
        return 2;
      }
    } else {
      const result = await scanDomain(request.domain, {
        // The operator's probe credentials, from the environment as the server reads them.
        proof: proofSettingsFromEnv(process.env),
        ...engine,
        ...request.options,
        signal: controller.signal,
        onProgress,
      });
      report = localReport(result);
    }
    return await deliverReport(report, output, process);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
