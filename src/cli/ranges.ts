import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CLOUD_NAMES, type CloudId } from '../connectors/cloud/provider.ts';
import { publishedRanges } from '../connectors/cloud/published-ranges.ts';
import { loadRanges, parsePublishedRanges, type RangesFile } from '../scanner/cloud/ranges.ts';
import { rangesFilePath, rangesUpdateTarget } from '../start/cloud-ranges.ts';
import { loadConfig } from '../start/config.ts';

const USAGE = `Usage: danglewatch ranges [show]
       danglewatch ranges update <file|url>

The clouds' public address ranges that findings about released addresses are judged against. Without
an update, the bundled, dated copy of each cloud's list is used. 'update' reads one cloud's published
list (AWS's ip-ranges.json, Google Cloud's cloud.json, Azure's ServiceTags file, DigitalOcean's CSV)
and writes it into CLOUD_RANGES_FILE (default DATA_DIR/cloud-ranges.json), keeping the other clouds'
entries.
Running servers and workers read the file when they start.
`;

function show(file: RangesFile, path: string | undefined): string {
  const lines = [`Cloud ranges from ${path ?? 'the bundled copy'}:`];
  for (const [cloud, entry] of Object.entries(file.clouds)) {
    if (!entry) continue;
    lines.push(
      `  ${CLOUD_NAMES[cloud as CloudId].padEnd(16)}${String(entry.prefixes.length).padStart(7)} blocks, published ${entry.published}: ${entry.source}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function read(source: string): Promise<string> {
  return /^https?:\/\//i.test(source) ? publishedRanges(source) : readFileSync(source, 'utf8');
}

/** `danglewatch ranges [show]` and `danglewatch ranges update <file|url>`. */
export async function rangesCommand(args: string[], now = new Date()): Promise<number> {
  const [action = 'show', source, ...rest] = args;
  if (action === '--help' || action === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  const config = loadConfig();
  if (action === 'show' && source === undefined) {
    const path = rangesFilePath(config);
    process.stdout.write(show(loadRanges(path), path));
    return 0;
  }
  if (action !== 'update' || !source || rest.length > 0) {
    process.stderr.write(USAGE);
    return 2;
  }
  const { cloud, entry } = parsePublishedRanges(await read(source), source, now);
  const target = rangesUpdateTarget(config);
  // The first update starts from the bundled copy: the other clouds keep their ranges.
  const current = loadRanges(existsSync(target) ? target : undefined);
  const next: RangesFile = { version: 1, clouds: { ...current.clouds, [cloud]: entry } };
  mkdirSync(dirname(target), { recursive: true });
  // Written beside the target and renamed over it: a server starting meanwhile reads the old or the new.
  writeFileSync(`${target}.tmp`, `${JSON.stringify(next, null, 2)}\n`);
  renameSync(`${target}.tmp`, target);
  process.stdout.write(
    `${CLOUD_NAMES[cloud]}: ${entry.prefixes.length} blocks published ${entry.published}, written to ${target}. Restart servers and workers to use them.\n`,
  );
  return 0;
}
