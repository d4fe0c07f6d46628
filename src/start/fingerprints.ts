import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Fingerprints, loadFingerprints } from '../scanner/fingerprints/file.ts';
import { DEFAULT_DATA_DIR } from './config.ts';

interface Where {
  FINGERPRINTS_FILE?: string;
  dataDir: string;
}

/**
 * Where this server's fingerprint catalogue lives: FINGERPRINTS_FILE, else DATA_DIR/fingerprints.json
 * once `danglewatch fingerprints update` has written it; undefined for the bundled catalogue.
 */
export function fingerprintsFilePath(config: Where): string | undefined {
  if (config.FINGERPRINTS_FILE) return config.FINGERPRINTS_FILE;
  const local = join(config.dataDir, 'fingerprints.json');
  return existsSync(local) ? local : undefined;
}

/** Where `danglewatch fingerprints update` writes: the file the server reads. */
export const fingerprintsUpdateTarget = (config: Where): string =>
  config.FINGERPRINTS_FILE ?? join(config.dataDir, 'fingerprints.json');

/**
 * The catalogue as it is now: read at start-up (a bad file fails it, naming the setting), then read
 * again whenever the file's modification time or size changes, so a running worker's next scan
 * uses an update without a restart. A file that turns bad later leaves the last good catalogue in
 * use, with a warning: the update command writes atomically, so only a hand edit can do that.
 */
export function liveFingerprints(config: Where, warn = (message: string) => process.emitWarning(message)) {
  let seen = '';
  let current: Fingerprints;
  const read = (path: string | undefined) => {
    const stamp = path ? `${path} ${statSync(path).mtimeMs} ${statSync(path).size}` : 'bundled';
    if (stamp === seen) return current;
    current = loadFingerprints(path);
    seen = stamp;
    return current;
  };
  try {
    read(fingerprintsFilePath(config));
  } catch (error) {
    throw new Error(`FINGERPRINTS_FILE: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (): Fingerprints => {
    try {
      return read(fingerprintsFilePath(config));
    } catch (error) {
      warn(`FINGERPRINTS_FILE: ${(error as Error).message}; the catalogue read before stays in use`);
      return current;
    }
  };
}

/**
 * The catalogue of a local `danglewatch scan`: the operator's file where the server would read one
 * (FINGERPRINTS_FILE, else DATA_DIR/fingerprints.json), so an update applies to both; undefined for
 * the bundled one. A bad file throws, naming the setting.
 */
export function localFingerprints(env: NodeJS.ProcessEnv): Fingerprints | undefined {
  const path = fingerprintsFilePath({
    FINGERPRINTS_FILE: env.FINGERPRINTS_FILE || undefined,
    dataDir: env.DATA_DIR || DEFAULT_DATA_DIR,
  });
  if (!path) return undefined;
  try {
    return loadFingerprints(path);
  } catch (error) {
    throw new Error(`FINGERPRINTS_FILE: ${(error as Error).message}`);
  }
}
