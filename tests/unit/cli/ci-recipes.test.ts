import { execFile } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv-draft-04';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { catalogue } from '../../../src/scanner/fingerprints/catalogue.ts';
import { evidencePage, FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';

const ROOT = join(import.meta.dirname, '../../..');
const BIN = join(ROOT, 'bin/danglewatch.js');
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));
const docs = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');

const validateSarif = new Ajv({ strict: false, unicodeRegExp: false, logger: false }).compile(
  JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')),
);

/** A code block of docs/ci.md, found by the `<!-- tested: name -->` line above it. */
function recipe(name: string): string {
  const match = new RegExp(`<!-- tested: ${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\``).exec(docs);
  if (!match?.[1]) throw new Error(`docs/ci.md has no block marked '${name}'`);
  return match[1];
}

const apex = 'recipes.test';
const surge = catalogue.find((e) => e.id === 'surge');
// A claimable finding (Surge) and a review one (a CNAME to a missing name of a registered domain).
const zone = zoneFrom({
  apex,
  records: [
    [`docs.${apex}`, { type: 'CNAME', data: 'dw-docs.surge.sh' }],
    ['dw-docs.surge.sh', { type: 'A', data: FIXTURE_IP }],
    [`stale.${apex}`, { type: 'CNAME', data: 'gone.dw-elsewhere.com' }],
  ],
});

let fixtures: ScanFixtures;
let dir: string;
let shims: string;

beforeAll(async () => {
  fixtures = await startScanFixtures(zone);
  if (surge) fixtures.web.site = (host) => (host === `docs.${apex}` ? evidencePage(surge) : undefined);
  dir = mkdtempSync(join(tmpdir(), 'dw-ci-'));
  writeFileSync(join(dir, 'all.txt'), `docs.${apex}\nstale.${apex}\n`);
  writeFileSync(join(dir, 'stale.txt'), `stale.${apex}\n`);
  shims = join(dir, 'bin');
  mkdirSync(shims);
  // npx in the recipes stands for this checkout's CLI; a local scan is pointed at the fixtures.
  writeFileSync(
    join(shims, 'npx'),
    [
      '#!/bin/sh',
      'while [ "$1" != danglewatch ]; do shift; done; shift',
      'case " $* " in *" --server "*) exec "$DW_NODE" "$DW_BIN" "$@" ;; esac',
      'exec "$DW_NODE" "$DW_BIN" "$@" $DW_FIXTURE_FLAGS',
      '',
    ].join('\n'),
  );
  chmodSync(join(shims, 'npx'), 0o755);
});
afterAll(async () => {
  await fixtures?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const fixtureFlags = (names = 'all.txt') =>
  [...fixtures.cliFlags(), '--no-discovery', '--subdomains', join(dir, names), '--timeout-ms', '1500'].join(
    ' ',
  );

/** Runs a script as the CI would, in `cwd`, with `npx` as above. */
function runScript(
  shell: 'bash' | 'sh',
  script: string,
  cwd: string,
  env: Record<string, string>,
  names?: string,
) {
  const args = shell === 'bash' ? ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script] : ['-c', script];
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      shell,
      args,
      {
        cwd,
        timeout: 60_000,
        env: {
          PATH: `${shims}:${process.env.PATH}`,
          HOME: dir,
          DW_NODE: process.execPath,
          DW_BIN: BIN,
          DW_FIXTURE_FLAGS: fixtureFlags(names),
          // The action's own code is this checkout, whose dependencies are installed.
          GITHUB_ACTION_PATH: ROOT,
          ...env,
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 2) : 0, stdout, stderr }),
    );
  });
}

const workdir = (name: string) => {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  return path;
};

// Each test runs the CLI in processes of its own, in a directory of its own: they run side by side,
// as most of their time is the processes' start.
describe('the GitHub Action (action.yml)', { timeout: 120_000, concurrent: true }, () => {
  const step = action.runs.steps[0];

  /** The step's environment as the runner builds it from the inputs given (else their defaults). */
  function stepEnv(inputs: Record<string, string>): Record<string, string> {
    return Object.fromEntries(
      Object.entries(step.env as Record<string, string>).map(([name, value]) => {
        const input = /^\$\{\{ inputs\.([\w-]+) \}\}$/.exec(value)?.[1] as string;
        return [name, inputs[input] ?? action.inputs[input]?.default ?? ''];
      }),
    );
  }

  it('is a composite action with the inputs of the issue, each described and reaching the script', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining(['domain', 'server', 'api-key', 'fail-on', 'baseline', 'zone-file']),
    );
    expect(action.inputs.domain.required).toBe(true);
    for (const [name, input] of Object.entries(action.inputs as Record<string, { description: string }>)) {
      expect(input.description, name).toMatch(/\w{3}/);
      expect(
        Object.values(step.env).filter((v) => v === `\${{ inputs.${name} }}`),
        name,
      ).toHaveLength(1);
    }
    expect(action.outputs['sarif-file'].value).toBe(`\${{ steps.scan.outputs.sarif-file }}`);
    expect(step.run).not.toContain('${{');
  });

  it('passes only options the CLI takes', async () => {
    const help = await runScript('sh', `"$DW_NODE" "$DW_BIN" scan --help`, dir, {});
    // The CLI's arguments are gathered in `args`; npx's and npm's own flags are not the CLI's.
    const argLines = (step.run as string).split('\n').filter((l) => /\bargs\+?=\(/.test(l));
    const flags = [...new Set(argLines.join(' ').match(/--[a-z][a-z-]+/g) as string[])];
    expect(flags).toEqual(
      expect.arrayContaining(['--format', '--output', '--fail-on', '--server', '--baseline', '--zone-file']),
    );
    for (const flag of flags) expect(help.stdout, flag).toMatch(new RegExp(`${flag}[ ,]`));
  });

  it('writes SARIF and fails the step on a finding; a baseline holding it lets the step pass', async () => {
    const cwd = workdir('action');
    const output = join(cwd, 'github-output');
    const first = await runScript('bash', step.run, cwd, {
      ...stepEnv({ domain: apex }),
      GITHUB_OUTPUT: output,
    });
    expect(first.code).toBe(1);
    expect(readFileSync(output, 'utf8')).toBe('sarif-file=danglewatch.sarif\n');
    const log = JSON.parse(readFileSync(join(cwd, 'danglewatch.sarif'), 'utf8'));
    expect(validateSarif(log)).toBe(true);
    expect(log.runs[0].results).toHaveLength(2);
    copyFileSync(join(cwd, 'danglewatch.sarif'), join(cwd, 'accepted.sarif'));
    const again = await runScript('bash', step.run, cwd, {
      ...stepEnv({ domain: apex, baseline: 'accepted.sarif', 'sarif-file': 'today.sarif' }),
      GITHUB_OUTPUT: output,
    });
    expect(again.code).toBe(0);
    expect(JSON.parse(readFileSync(join(cwd, 'today.sarif'), 'utf8')).runs[0].results[0].baselineState).toBe(
      'unchanged',
    );
    const missing = await runScript('bash', step.run, cwd, {
      ...stepEnv({ domain: apex, baseline: 'nothing-yet.sarif' }),
      GITHUB_OUTPUT: output,
    });
    expect(missing.stdout).toContain('::notice::baseline nothing-yet.sarif not found: every finding counts');
    expect(missing.code).toBe(1);
  });

  it("zone-file: the zone's own records are scanned too", async () => {
    const cwd = workdir('action-zone');
    // A name that neither the names given nor discovery know: only the zone file holds it.
    writeFileSync(
      join(cwd, 'zone.db'),
      [
        `$ORIGIN ${apex}.`,
        '$TTL 300',
        `@ IN SOA ns1.${apex}. admin.${apex}. 1 3600 600 86400 300`,
        'legacy IN CNAME gone.dw-elsewhere.com.',
        '',
      ].join('\n'),
    );
    const env = { GITHUB_OUTPUT: join(cwd, 'out') };
    const reported = () => {
      const log = JSON.parse(readFileSync(join(cwd, 'danglewatch.sarif'), 'utf8'));
      return log.runs[0].results
        .map(
          (r: { locations: { logicalLocations: { name: string }[] }[] }) =>
            r.locations[0]?.logicalLocations[0]?.name,
        )
        .sort();
    };
    await runScript('bash', step.run, cwd, { ...stepEnv({ domain: apex }), ...env }, 'stale.txt');
    expect(reported()).toEqual([`stale.${apex}`]);
    const withZone = await runScript(
      'bash',
      step.run,
      cwd,
      { ...stepEnv({ domain: apex, 'zone-file': 'zone.db' }), ...env },
      'stale.txt',
    );
    expect(withZone.code).toBe(1);
    expect(reported()).toEqual([`legacy.${apex}`, `stale.${apex}`]);
  });

  it('fail-on: a review finding alone fails the default step, not a fail-on likely one', async () => {
    const cwd = workdir('action-fail-on');
    const env = { GITHUB_OUTPUT: join(cwd, 'out') };
    const review = await runScript(
      'bash',
      step.run,
      cwd,
      { ...stepEnv({ domain: apex }), ...env },
      'stale.txt',
    );
    expect(review.code).toBe(1);
    const likely = await runScript(
      'bash',
      step.run,
      cwd,
      { ...stepEnv({ domain: apex, 'fail-on': 'likely' }), ...env },
      'stale.txt',
    );
    expect(likely.code).toBe(0);
  });
});

describe('docs/ci.md', { timeout: 120_000, concurrent: true }, () => {
  it.each(['github-push', 'github-schedule'])(
    'the %s workflow runs the action with its inputs and uploads the SARIF to code scanning',
    (name) => {
      const workflow = parse(recipe(name));
      expect(workflow.permissions['security-events']).toBe('write');
      const steps = (Object.values(workflow.jobs)[0] as { steps: Record<string, unknown>[] }).steps;
      const scan = steps.find((s) => String(s.uses).startsWith('danglewatch/danglewatch@')) as {
        id: string;
        with: Record<string, string>;
      };
      expect(Object.keys(scan.with).every((input) => input in action.inputs)).toBe(true);
      expect(scan.with.domain).toBeTruthy();
      const upload = steps.find((s) => String(s.uses).startsWith('github/codeql-action/upload-sarif@')) as {
        if: string;
        with: Record<string, string>;
      };
      expect(upload.if).toBe('always()');
      expect(upload.with.sarif_file).toBe(`\${{ steps.${scan.id}.outputs.sarif-file }}`);
      if (name === 'github-schedule') {
        expect(workflow.on.schedule[0].cron).toMatch(/^[\d*]+ [\d*]+ \* \* \*$/);
        expect(scan.with['api-key']).toBe(`\${{ secrets.DANGLEWATCH_KEY }}`);
      }
    },
  );

  it('the shell recipe: exit 1 on findings, then 0 with the last report as its baseline', async () => {
    const cwd = workdir('shell');
    const script = recipe('shell');
    const first = await runScript('sh', script, cwd, { DANGLEWATCH_DOMAIN: apex });
    expect([first.code, first.stdout]).toEqual([1, 'DangleWatch: new findings, see danglewatch.json\n']);
    const second = await runScript('sh', script, cwd, { DANGLEWATCH_DOMAIN: apex });
    expect([second.code, second.stdout]).toEqual([0, 'DangleWatch: nothing new fails the run\n']);
    const report = JSON.parse(readFileSync(join(cwd, 'danglewatch.json'), 'utf8'));
    expect(report.findings.map((f: { known: boolean }) => f.known)).toEqual([true, true]);
    const failed = await runScript('sh', script, cwd, { DANGLEWATCH_DOMAIN: 'not a domain' });
    expect([failed.code, failed.stdout]).toEqual([2, 'DangleWatch: the scan could not run\n']);
  });

  it('the GitLab job: fails on a likely or worse finding, keeps JSON and SARIF; passes with the baseline', async () => {
    const job = parse(recipe('gitlab')).danglewatch;
    expect(job.artifacts).toMatchObject({ when: 'always', paths: ['danglewatch.json', 'danglewatch.sarif'] });
    const cwd = workdir('gitlab');
    const env = { ...job.variables, DANGLEWATCH_DOMAIN: apex };
    const script = (job.script as string[]).join('\n');
    const first = await runScript('sh', script, cwd, env);
    expect(first.code).toBe(1);
    expect(validateSarif(JSON.parse(readFileSync(join(cwd, 'danglewatch.sarif'), 'utf8')))).toBe(true);
    mkdirSync(join(cwd, '.danglewatch'));
    copyFileSync(join(cwd, 'danglewatch.json'), join(cwd, '.danglewatch/baseline.json'));
    const second = await runScript('sh', script, cwd, env);
    expect(second.code).toBe(0);
    // The review finding alone does not fail a job whose DANGLEWATCH_FAIL_ON is likely.
    rmSync(join(cwd, '.danglewatch'), { recursive: true });
    const review = await runScript('sh', script, cwd, env, 'stale.txt');
    expect(review.code).toBe(0);
    expect(existsSync(join(cwd, 'danglewatch.json'))).toBe(true);
  });
});
