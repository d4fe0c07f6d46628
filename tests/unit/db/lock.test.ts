import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../../src/db/lock.ts';

describe('lockDataDir', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-lock-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes its pid and removes the lock on release', () => {
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'pglite.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, 'pglite.lock'))).toBe(false);
  });

  it('takes over a lock left by a process that no longer runs', () => {
    // pid 2^22 + 1 is above Linux's pid_max default and so cannot be running.
    writeFileSync(join(dir, 'pglite.lock'), String(4194305));
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'pglite.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });

  it('refuses a lock held by a running process', () => {
    writeFileSync(join(dir, 'pglite.lock'), '1');
    expect(() => lockDataDir(dir)).toThrow('in use by process 1');
    rmSync(join(dir, 'pglite.lock'));
  });
});
