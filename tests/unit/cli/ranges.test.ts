// `danglewatch ranges`: shows the ranges in use, and updates one cloud's from its published list,
// keeping the others; the server's engine then reads the file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configuredCloudRanges } from '../../../src/start/cloud-ranges.ts';
import { runCli } from '../../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'dw-ranges-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('danglewatch ranges', () => {
  it('shows the bundled copy, dated, until an update', async () => {
    const run = await runCli(['ranges'], { DATA_DIR: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Cloud ranges from the bundled copy:/);
    expect(run.stdout).toMatch(/AWS +\d+ blocks, published \d{4}-\d{2}-\d{2}: AWS.s ip-ranges.json of/);
  });

  it("updates one cloud from its published file and keeps the others'", async () => {
    const published = join(dir, 'ip-ranges.json');
    writeFileSync(
      published,
      JSON.stringify({
        syncToken: '1',
        createDate: '2026-11-26-23-13-05',
        prefixes: [{ ip_prefix: '127.0.40.0/24', region: 'us-east-1', service: 'EC2' }],
        ipv6_prefixes: [],
      }),
    );
    const run = await runCli(['ranges', 'update', published], { DATA_DIR: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `AWS: 1 blocks published 2026-11-26, written to ${join(dir, 'cloud-ranges.json')}`,
    );
    const written = JSON.parse(readFileSync(join(dir, 'cloud-ranges.json'), 'utf8'));
    expect(written.clouds.aws).toEqual({
      published: '2026-11-26',
      source: published,
      prefixes: ['127.0.40.0/24'],
    });
    expect(written.clouds.gcloud.prefixes.length).toBeGreaterThan(0);
    const ranges = configuredCloudRanges({ dataDir: dir });
    expect(ranges.filter((r) => r.cloud === 'aws')).toEqual([
      { cidr: '127.0.40.0/24', provider: 'AWS', cloud: 'aws' },
    ]);
    const shown = await runCli(['ranges', 'show'], { DATA_DIR: dir });
    expect(shown.stdout).toContain(`Cloud ranges from ${join(dir, 'cloud-ranges.json')}`);
  });

  it('writes a CLOUD_RANGES_FILE that does not exist yet, in a folder that does not either, from the bundled copy', async () => {
    const target = join(dir, 'new', 'folder', 'ranges.json');
    const published = join(dir, 'cloud.json');
    writeFileSync(
      published,
      JSON.stringify({
        syncToken: '1',
        creationTime: '2026-11-26T19:16:28.780563',
        prefixes: [{ ipv4Prefix: '127.0.41.0/24', service: 'Google Cloud', scope: 'us-central1' }],
      }),
    );
    const run = await runCli(['ranges', 'update', published], { DATA_DIR: dir, CLOUD_RANGES_FILE: target });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const written = JSON.parse(readFileSync(target, 'utf8'));
    expect(written.clouds.gcloud.prefixes).toEqual(['127.0.41.0/24']);
    expect(written.clouds.azure.prefixes.length).toBeGreaterThan(0);
  });

  it('a ranges file that cannot be read fails start-up naming CLOUD_RANGES_FILE', () => {
    expect(() =>
      configuredCloudRanges({ CLOUD_RANGES_FILE: join(dir, 'missing.json'), dataDir: dir }),
    ).toThrow(/^CLOUD_RANGES_FILE: ENOENT/);
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      '{"version":1,"clouds":{"aws":{"published":"2026-11-27","source":"x","prefixes":["3.0.0.0/99"]}}}',
    );
    expect(() => configuredCloudRanges({ CLOUD_RANGES_FILE: bad, dataDir: dir })).toThrow(
      /^CLOUD_RANGES_FILE: .*bad\.json is not a ranges file \(clouds\.aws\.prefixes\.0: must be an address block/,
    );
  });

  it('refuses a file that is not a published list, and changes nothing', async () => {
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{"not":"ranges"}');
    const before = readFileSync(join(dir, 'cloud-ranges.json'), 'utf8');
    const run = await runCli(['ranges', 'update', junk], { DATA_DIR: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/not a list this command reads/);
    expect(readFileSync(join(dir, 'cloud-ranges.json'), 'utf8')).toBe(before);
    expect((await runCli(['ranges', 'update'], { DATA_DIR: dir })).code).toBe(2);
  });
});
