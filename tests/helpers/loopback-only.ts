// Every unit test runs with this: a TCP connection or UDP datagram to anything but loopback fails
// the test that made it. A scan or client whose default reaches the internet (a public resolver,
// RDAP, a provider's API) would otherwise pass here by timing out quietly, and reach out for real
// on a machine that has a network.
import { afterEach } from 'vitest';
import { guardSockets } from './loopback-guard.ts';

/**
 * Shared by every file a worker runs: files that share a module graph run this setup each, and the
 * sockets are wrapped only by the first.
 */
const GUARD = Symbol.for('danglewatch.tests.loopback-only');
const state = globalThis as typeof globalThis & { [GUARD]?: string[] };
if (state[GUARD] === undefined) {
  const attempts: string[] = [];
  state[GUARD] = attempts;
  guardSockets((where) => attempts.push(where));
}
const attempts = state[GUARD];

afterEach(() => {
  if (attempts.length === 0) return;
  const seen = [...new Set(attempts.splice(0))];
  throw new Error(`this test tried to reach beyond loopback: ${seen.join(', ')}`);
});
