import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIME_ENV, RUNTIME_FLAGS } from '../../../bin/runtime.js';

const BIN = join(import.meta.dirname, '../../../bin/danglewatch.js');
const [[VARIABLE, VALUE]] = Object.entries(RUNTIME_ENV) as [[string, string]];

interface Report {
  pid: number;
  execArgv: string[];
  variable: string | null;
}

let dir: string;
let preload: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dw-runtime-'));
  preload = join(dir, 'report.mjs');
  // Loaded into every image of the process; only the one that runs to the end reports.
  writeFileSync(
    preload,
    `process.on('exit', () => process.stderr.write('REPORT ' + JSON.stringify({ pid: process.pid, execArgv: process.execArgv, variable: process.env.${VARIABLE} ?? null }) + '\\n'));\n`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(nodeArgs: string[], options: { nodeOptions?: string; env?: Record<string, string> } = {}) {
  const env: Record<string, string | undefined> = {
    ...process.env,
    [VARIABLE]: undefined,
    ...options.env,
    NODE_OPTIONS: `--import=${preload} ${options.nodeOptions ?? ''}`.trim(),
  };
  return new Promise<{ code: number; pid: number; stderr: string; reports: Report[] }>((resolve) => {
    const child = execFile(
      process.execPath,
      [...nodeArgs, BIN, 'no-such-command'],
      { env, timeout: 30_000 },
      (error, _stdout, stderr) => {
        const reports = stderr
          .split('\n')
          .filter((line) => line.startsWith('REPORT '))
          .map((line) => JSON.parse(line.slice('REPORT '.length)));
        resolve({ code: error ? Number(error.code) : 0, pid: child.pid ?? 0, stderr, reports });
      },
    );
  });
}

describe('the danglewatch command runs with its runtime settings', () => {
  it('starts itself again with them, in the same process, with the same arguments', async () => {
    const { code, pid, stderr, reports } = await run([]);
    expect(reports).toEqual([{ pid, execArgv: RUNTIME_FLAGS, variable: VALUE }]);
    expect(stderr).toContain("unknown command 'no-such-command'");
    expect(code).toBe(2);
  });

  it('keeps Node options given on the command line, after its own', async () => {
    const { reports } = await run(['--no-warnings']);
    expect(reports).toEqual([expect.objectContaining({ execArgv: [...RUNTIME_FLAGS, '--no-warnings'] })]);
  });

  it("keeps the operator's young generation size from NODE_OPTIONS, and still sets the allocator's", async () => {
    const { pid, reports } = await run([], { nodeOptions: '--max-semi-space-size=16' });
    expect(reports).toEqual([{ pid, execArgv: [], variable: VALUE }]);
  });

  it("keeps the operator's young generation size from the command line", async () => {
    const { reports } = await run(['--max_semi_space_size=4']);
    expect(reports).toEqual([expect.objectContaining({ execArgv: ['--max_semi_space_size=4'] })]);
  });

  it("keeps the operator's own allocator setting", async () => {
    const { reports } = await run([], { env: { [VARIABLE]: '65536' } });
    expect(reports).toEqual([expect.objectContaining({ execArgv: RUNTIME_FLAGS, variable: '65536' })]);
  });
});
