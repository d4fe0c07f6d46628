import { createHash } from 'node:crypto';

type Identity = { subdomain: string; recordType: string; target: string; service: string };

/**
 * A finding's identity within its domain: the name, record type, target and kind (the service it
 * points into). The open-findings state keys its rows on it.
 */
export function identityHash(f: Identity): string {
  return createHash('sha256')
    .update(`${f.subdomain}\n${f.recordType}\n${f.target}\n${f.service}`)
    .digest('hex');
}

/** How many hex digits of the hash the key keeps: 160 bits, so `dw:` and the hash fit 64 characters with room. */
const KEY_HEX = 40;

/**
 * The finding's key, the same across scans, processes and restarts: `dw:` and a hash of the
 * workspace and the finding's identity. Trackers find their ticket again by it, SARIF and CSV carry
 * it; a finding whose target or kind changes is another finding, with another key.
 */
export function findingKey(workspaceId: string, f: Identity): string {
  const hash = createHash('sha256')
    .update(`${workspaceId}\n${f.subdomain}\n${f.recordType}\n${f.target}\n${f.service}`)
    .digest('hex');
  return `dw:${hash.slice(0, KEY_HEX)}`;
}
