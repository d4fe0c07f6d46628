import { join } from 'node:path';
import { inject } from 'vitest';
import { waitForLock } from '../../src/db/lock.ts';

/**
 * Runs `work` while no other file of this run runs work of its own through here: for tests that
 * keep a core busy for many seconds (the 100,000-record inventory caps). Two at once on a busy
 * 2-core machine took minutes each and ran past their timeouts; one after the other, seconds.
 */
export async function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const release = await waitForLock(join(inject('runDir'), 'one-at-a-time.lock'));
  try {
    return await work();
  } finally {
    release();
  }
}
