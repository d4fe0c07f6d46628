import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Takes the lock file at `path`, writing this process's pid into it. A lock left by a process that
 * no longer runs is taken over. Returns the release, or the pid of the live process holding it.
 */
function tryLock(path: string): (() => void) | number {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isInteger(owner) && isRunning(owner)) return owner;
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${path}`);
}

/**
 * Two processes on one PGlite directory corrupt it silently, so the directory is held with a lock
 * file naming the owner's pid; a second process is refused at once.
 */
export function lockDataDir(dir: string): () => void {
  const lock = tryLock(join(dir, 'pglite.lock'));
  if (typeof lock === 'number') {
    throw new Error(
      `The database in ${dir} is in use by process ${lock}. Stop it first, or set DATA_DIR to another directory.`,
    );
  }
  return lock;
}

/** The same lock for work that others wait for (a site build): resolves once this process holds it. */
export async function waitForLock(path: string, pollMs = 250): Promise<() => void> {
  for (;;) {
    const lock = tryLock(path);
    if (typeof lock === 'function') return lock;
    await sleep(pollMs);
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
