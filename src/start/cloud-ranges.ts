import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLOUD_NAMES } from '../connectors/cloud/provider.ts';
import { cloudRangesOf, loadRanges } from '../scanner/cloud/ranges.ts';
import { cloudRanges as coarseRanges } from '../scanner/detect/cloud-ranges.ts';
import type { CloudRange } from '../scanner/types.ts';

/**
 * Where this server's cloud ranges live: CLOUD_RANGES_FILE, else DATA_DIR/cloud-ranges.json once
 * `danglewatch ranges update` has written it; undefined for the bundled copy.
 */
export function rangesFilePath(config: { CLOUD_RANGES_FILE?: string; dataDir: string }): string | undefined {
  if (config.CLOUD_RANGES_FILE) return config.CLOUD_RANGES_FILE;
  const local = join(config.dataDir, 'cloud-ranges.json');
  return existsSync(local) ? local : undefined;
}

/** Where `danglewatch ranges update` writes: the file the server reads. */
export function rangesUpdateTarget(config: { CLOUD_RANGES_FILE?: string; dataDir: string }): string {
  return config.CLOUD_RANGES_FILE ?? join(config.dataDir, 'cloud-ranges.json');
}

/**
 * The engine's cloud ranges: the connectable clouds' from the ranges file (or the bundled copy), and
 * the coarse blocks of other clouds, whose accounts cannot be connected.
 */
export function configuredCloudRanges(config: { CLOUD_RANGES_FILE?: string; dataDir: string }): CloudRange[] {
  const names = new Set(Object.values(CLOUD_NAMES));
  let file: ReturnType<typeof loadRanges>;
  try {
    file = loadRanges(rangesFilePath(config));
  } catch (error) {
    // Start-up fails naming the setting, as for every other value of the environment.
    throw new Error(`CLOUD_RANGES_FILE: ${error instanceof Error ? error.message : String(error)}`);
  }
  return [...cloudRangesOf(file), ...coarseRanges.filter((range) => !names.has(range.provider))];
}
