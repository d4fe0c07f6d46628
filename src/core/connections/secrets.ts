import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What stores and reads DNS providers' credentials; without a key it refuses, and says why. */
export type SecretsKey = { key: Buffer } | { key: undefined; reason: string };

export const NO_SECRETS_KEY =
  'SECRETS_KEY is not set on this server, so DNS connections cannot be stored or read. Set it to 32 random bytes (openssl rand -base64 32) on every API and worker process.';

function parseKey(value: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes');
  return key;
}

/**
 * The key from SECRETS_KEY; on the embedded database without it, one kept in DATA_DIR/secrets.key
 * (made once, mode 0600, said in the log), since that database lives in the same folder anyway.
 * Processes on PostgreSQL share the database across machines, so there the key must be given.
 */
export function loadSecretsKey(
  config: { SECRETS_KEY?: string; DATABASE_URL?: string; dataDir: string },
  logger: Pick<Logger, 'info' | 'warn'>,
): SecretsKey {
  if (config.SECRETS_KEY) return { key: parseKey(config.SECRETS_KEY) };
  if (config.DATABASE_URL) {
    logger.warn(NO_SECRETS_KEY);
    return { key: undefined, reason: NO_SECRETS_KEY };
  }
  const path = join(config.dataDir, 'secrets.key');
  if (!existsSync(path)) {
    writeFileSync(path, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    logger.info({ path }, 'made a key for DNS connection credentials (set SECRETS_KEY to use your own)');
  }
  chmodSync(path, 0o600);
  return { key: parseKey(readFileSync(path, 'utf8').trim()) };
}

/**
 * AES-256-GCM with a fresh IV; `context` (the owner's id) is authenticated with it, so a ciphertext
 * copied onto another account's row does not open there.
 */
export function seal(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

export function unseal(key: Buffer, sealed: string, context: string): string {
  const [version, payload] = sealed.split(':');
  if (version !== VERSION || !payload) throw new Error('not a sealed secret of this version');
  const bytes = Buffer.from(payload, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}
