import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { main } from '../../src/cli/main.ts';

// The DATA_DIR of a run whose test names none: a folder that does not exist, so a developer's
// ./data (a fingerprints file written by `danglewatch fingerprints update`, say) never changes what
// a test sees. The tests of commands that write there name a DATA_DIR of their own.
const noDataDir = join(tmpdir(), 'danglewatch-tests-no-data-dir');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `danglewatch <argv>` in this process, as bin/danglewatch.js runs it but without a process of its
 * own (a spawn costs a second or more on a busy machine), with `env` laid over the environment for
 * the call and stdout and stderr captured. Its scans validate 20 ms after finding, as the engine's
 * tests do, not 2 s: the fixtures answer the second look as they answered the first.
 */
export async function runCli(argv: string[], given: Record<string, string> = {}): Promise<CliRun> {
  const env = { DATA_DIR: noDataDir, ...given };
  const stdout: string[] = [];
  const stderr: string[] = [];
  const before = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const restoreEnv = () => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  Object.assign(process.env, env);
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => stdout.push(String(chunk)) > 0);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => stderr.push(String(chunk)) > 0);
  try {
    const code = await main(argv, { validationDelayMs: 20 });
    return { code, stdout: stdout.join(''), stderr: stderr.join('') };
  } finally {
    out.mockRestore();
    err.mockRestore();
    restoreEnv();
  }
}
