import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockDataDir, waitForLock } from '../../../src/db/lock.ts';

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

describe('waitForLock (one site build at a time)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dw-wait-lock-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('waits while a running process holds the lock, and takes it once released', async () => {
    const path = join(dir, 'build.lock');
    // pid 1 always runs: the lock is held until the file goes.
    writeFileSync(path, '1');
    let taken = false;
    const waiting = waitForLock(path, 20).then((release) => {
      taken = true;
      return release;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(taken).toBe(false);
    rmSync(path);
    const release = await waiting;
    expect(readFileSync(path, 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(path)).toBe(false);
  });
});
