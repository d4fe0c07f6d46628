import { createHash, randomBytes } from 'node:crypto';
import { API_KEY_PREFIX } from '../../model/api-access.ts';

/** `dw_` and 43 base64url characters: 256 random bits. */
const KEY_PATTERN = /^dw_[A-Za-z0-9_-]{43}$/;

/** Characters of the key shown in lists after it is created: `dw_` and 8 more. */
const VISIBLE_LENGTH = API_KEY_PREFIX.length + 8;

/**
 * The stored form of a key: hex SHA-256. A key is 256 random bits, so a fast hash is enough (no
 * salt, no slow KDF): nobody can guess keys against it, and the lookup stays one index probe.
 */
export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function looksLikeApiKey(secret: string): boolean {
  return KEY_PATTERN.test(secret);
}

/** A new key: the secret to show once, what Settings may show, and what is stored. */
export function newApiKey(): { secret: string; prefix: string; hash: string } {
  const secret = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { secret, prefix: secret.slice(0, VISIBLE_LENGTH), hash: hashApiKey(secret) };
}
