import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Two processes on one PGlite directory corrupt it silently, so the directory is held with a lock
 * file naming the owner's pid. A lock left by a process that no longer runs is taken over.
 */
export function lockDataDir(dir: string): () => void {
  const path = join(dir, 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isInteger(owner) && isRunning(owner)) {
        throw new Error(
          `The database in ${dir} is in use by process ${owner}. Stop it first, or set DATA_DIR to another directory.`,
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not lock the database directory ${dir}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
