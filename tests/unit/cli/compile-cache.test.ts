import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '../../../bin/danglewatch.js');
// The command's own default: Node's cache directory under the system's temporary directory.
const temporary = mkdtempSync(join(tmpdir(), 'dw-compile-cache-'));
const cacheDir = join(temporary, 'node-compile-cache');
afterAll(() => rmSync(temporary, { recursive: true, force: true }));

const { NODE_COMPILE_CACHE: _, ...withoutCacheSetting } = process.env;

/** `danglewatch scan --help` loads the whole engine; Node's own debug log says what came from the cache. */
async function scanHelp() {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, 'scan', '--help'], {
    env: { ...withoutCacheSetting, TMPDIR: temporary, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' },
  });
  return { stdout, stderr };
}

const cachedFiles = () => readdirSync(cacheDir, { recursive: true }).length;

describe('the command keeps its compiled sources between runs', () => {
  it('writes the engine to the compile cache, then starts from it without stripping types again', async () => {
    const first = await scanHelp();
    expect(first.stdout).toContain('Usage: danglewatch scan');
    // Every source the command loaded, not only the command's entry file.
    expect(cachedFiles()).toBeGreaterThan(50);

    const second = await scanHelp();
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toMatch(
      /retrieving transpile cache for StrippedTypeScript file:\/\/\S+\/src\/scanner\/scan\.ts\.\.\.success/,
    );
  });
});
