import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';
import { CLOUD_NAMES, type CloudId } from '../../connectors/cloud/provider.ts';
import { CLOUD_PROVIDER_IDS } from '../../model/contract.ts';
import type { CloudRange } from '../types.ts';

const cidr = z.string().refine((value) => {
  const [net, bits, extra] = value.split('/');
  const family = isIP(net ?? '');
  const n = Number(bits);
  return (
    extra === undefined && family !== 0 && Number.isInteger(n) && n >= 0 && n <= (family === 4 ? 32 : 128)
  );
}, 'must be an address block such as 3.0.0.0/9');

const cloudEntry = z.strictObject({
  /** When the cloud published the list (or it was compiled), as YYYY-MM-DD or an ISO time. */
  published: z.string().min(10).max(40),
  /** Where the list came from, in words: a URL, a file, the bundled copy's origin. */
  source: z.string().min(1).max(1000),
  prefixes: z.array(cidr).max(200_000),
});

/** The ranges file: per cloud, its public address blocks, dated and sourced. */
export const rangesFileSchema = z.strictObject({
  version: z.literal(1),
  clouds: z.partialRecord(z.enum(CLOUD_PROVIDER_IDS), cloudEntry),
});
export type RangesFile = z.infer<typeof rangesFileSchema>;
export type CloudRangesEntry = z.infer<typeof cloudEntry>;

const BUNDLED = new URL('./ranges.json', import.meta.url);

/**
 * The ranges from `file` (CLOUD_RANGES_FILE, as `danglewatch ranges update` writes it), else the
 * bundled, dated copy. Read from disk only: nothing is fetched at run time.
 */
export function loadRanges(file?: string): RangesFile {
  const path = file ?? BUNDLED;
  const text = readFileSync(path, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${String(path)} is not JSON`);
  }
  const parsed = rangesFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${String(path)} is not a ranges file (${issue?.path.join('.')}: ${issue?.message})`);
  }
  return parsed.data;
}

/** The ranges as the engine takes them: each block named for its cloud, which accounts can be connected of. */
export function cloudRangesOf(file: RangesFile): CloudRange[] {
  const ranges: CloudRange[] = [];
  for (const cloud of CLOUD_PROVIDER_IDS) {
    for (const prefix of file.clouds[cloud]?.prefixes ?? [])
      ranges.push({ cidr: prefix, provider: CLOUD_NAMES[cloud], cloud });
  }
  return ranges;
}

const awsFile = z.object({
  createDate: z.string(),
  prefixes: z.array(z.object({ ip_prefix: z.string(), service: z.string() }).loose()),
  ipv6_prefixes: z.array(z.object({ ipv6_prefix: z.string(), service: z.string() }).loose()).optional(),
});
const googleFile = z.object({
  creationTime: z.string(),
  prefixes: z.array(
    z.object({ ipv4Prefix: z.string().optional(), ipv6Prefix: z.string().optional() }).loose(),
  ),
});
const azureFile = z.object({
  changeNumber: z.number().optional(),
  cloud: z.string().optional(),
  values: z.array(
    z
      .object({ name: z.string(), properties: z.object({ addressPrefixes: z.array(z.string()) }).loose() })
      .loose(),
  ),
});

/** AWS's services whose addresses an account holds and gives back: Elastic IPs, instances, accelerators. */
const AWS_ACCOUNT_SERVICES = new Set(['EC2', 'GLOBALACCELERATOR']);

/**
 * One cloud's published list, in the cloud's own format, as a ranges entry: AWS's ip-ranges.json
 * (its EC2 and Global Accelerator blocks), Google Cloud's cloud.json, Azure's ServiceTags file (the
 * AzureCloud tag) or DigitalOcean's CSV. `source` says where it came from.
 */
export function parsePublishedRanges(
  text: string,
  source: string,
  today: Date,
): { cloud: CloudId; entry: CloudRangesEntry } {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) {
    // DigitalOcean: prefix,country,region,city,postcode (a geofeed).
    const prefixes = trimmed
      .split(/\r?\n/)
      .map((line) => line.split(',')[0]?.trim() ?? '')
      .filter((p) => p && !p.startsWith('#'));
    return { cloud: 'digitalocean', entry: checked({ published: day(today), source, prefixes }) };
  }
  const json = JSON.parse(trimmed) as unknown;
  const aws = awsFile.safeParse(json);
  if (aws.success) {
    const v4 = aws.data.prefixes.filter((p) => AWS_ACCOUNT_SERVICES.has(p.service)).map((p) => p.ip_prefix);
    const v6 = (aws.data.ipv6_prefixes ?? [])
      .filter((p) => AWS_ACCOUNT_SERVICES.has(p.service))
      .map((p) => p.ipv6_prefix);
    // createDate is YYYY-MM-DD-hh-mm-ss.
    const published = aws.data.createDate.slice(0, 10);
    return { cloud: 'aws', entry: checked({ published, source, prefixes: unique([...v4, ...v6]) }) };
  }
  const google = googleFile.safeParse(json);
  if (google.success) {
    const prefixes = google.data.prefixes.flatMap((p) =>
      [p.ipv4Prefix, p.ipv6Prefix].filter((x) => x !== undefined),
    );
    const published = day(new Date(google.data.creationTime.replace(/\.\d+$/, '')), today);
    return { cloud: 'gcloud', entry: checked({ published, source, prefixes: unique(prefixes) }) };
  }
  const azure = azureFile.safeParse(json);
  if (azure.success) {
    const tag = azure.data.values.find((v) => v.name === 'AzureCloud');
    if (!tag) throw new Error('the Azure service tags file has no AzureCloud tag');
    return {
      cloud: 'azure',
      entry: checked({ published: day(today), source, prefixes: unique(tag.properties.addressPrefixes) }),
    };
  }
  const own = rangesFileSchema.safeParse(json);
  if (own.success) {
    const [first] = Object.entries(own.data.clouds) as [CloudId, CloudRangesEntry][];
    if (first && Object.keys(own.data.clouds).length === 1) return { cloud: first[0], entry: first[1] };
    throw new Error('a ranges file given to update must hold one cloud');
  }
  throw new Error(
    "not a list this command reads: give AWS's ip-ranges.json, Google Cloud's cloud.json, Azure's ServiceTags file or DigitalOcean's CSV",
  );
}

const unique = (values: string[]) => [...new Set(values)];
const day = (date: Date, fallback?: Date) =>
  (Number.isNaN(date.getTime()) && fallback ? fallback : date).toISOString().slice(0, 10);

function checked(entry: CloudRangesEntry): CloudRangesEntry {
  const parsed = cloudEntry.safeParse(entry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `the list holds something that is not an address block (${issue?.path.join('.')}: ${issue?.message})`,
    );
  }
  if (parsed.data.prefixes.length === 0) throw new Error('the list holds no address blocks');
  return parsed.data;
}
