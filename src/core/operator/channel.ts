import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How `danglewatch users` reaches a running server: the embedded database belongs to one process,
 * so while `serve` holds it, the command asks the server instead, on loopback, with a token that
 * only someone who can read DATA_DIR has.
 */
export interface OperatorChannel {
  url: string;
  token: string;
}

const FILE = 'operator.json';

export function newOperatorToken(): string {
  return randomBytes(24).toString('hex');
}

/** Publishes the channel in DATA_DIR (readable by its owner only); the returned function removes it. */
export function publishOperatorChannel(dataDir: string, channel: OperatorChannel): () => void {
  const path = join(dataDir, FILE);
  writeFileSync(path, JSON.stringify(channel), { mode: 0o600 });
  return () => rmSync(path, { force: true });
}

export function readOperatorChannel(dataDir: string): OperatorChannel | undefined {
  try {
    return JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')) as OperatorChannel;
  } catch {
    return undefined;
  }
}
