import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Resolution } from '../dns/chain.ts';

/** Lines of a list file: blank lines and `#` comments ignored. */
export function parseList(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim().toLowerCase())
    .filter(Boolean);
}

let builtIn: string[] | undefined;

/** The built-in list of common labels (a data file next to this module). */
export function builtInWordlist(): string[] {
  builtIn ??= parseList(readFileSync(new URL('./wordlist.txt', import.meta.url), 'utf8'));
  return builtIn;
}

/** Labels nobody would use, to see whether the zone answers for everything. */
export function wildcardProbes(domain: string, count = 3) {
  return Array.from({ length: count }, () => `dw-wc-${randomBytes(6).toString('hex')}.${domain}`);
}

/** What a name resolves to, without the name: equal for every name a wildcard answers. */
export function answerSignature(res: Resolution) {
  return `${res.status}|${res.chain.join('>')}|${[...res.a, ...res.aaaa].sort().join(',')}`;
}
