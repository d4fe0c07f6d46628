import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_MESSAGES } from '../../../src/model/messages.ts';
import type { ZoneRecord } from '../../../src/scanner/zone/record.ts';
import { FIXTURE_IP, zoneFrom } from '../../fixtures/catalogue-zone.ts';
import { startCloudflareFake } from '../../fixtures/dns-providers/cloudflare.ts';
import { startDigitalOceanFake } from '../../fixtures/dns-providers/digitalocean.ts';
import type { FakeProvider } from '../../fixtures/dns-providers/fake-server.ts';
import { type GoogleFake, startGoogleFake } from '../../fixtures/dns-providers/gcloud.ts';
import { startRoute53Fake } from '../../fixtures/dns-providers/route53.ts';
import type { FixtureRecord } from '../../fixtures/dns-server.ts';
import { type ScanFixtures, startScanFixtures } from '../../fixtures/scan-fixtures.ts';
import { runCli } from '../../helpers/cli.ts';

const apex = 'zones.test';
/** In the zone, and in the DNS, but in neither CT nor the wordlist: only the zone reveals it. */
const hidden = `campaign-2019.${apex}`;
const zoneRecords: ZoneRecord[] = [
  { name: apex, type: 'NS', ttl: 300, data: 'ns1.provider.net' },
  { name: `www.${apex}`, type: 'A', ttl: 300, data: FIXTURE_IP },
  { name: hidden, type: 'CNAME', ttl: 300, data: 'dw-campaign.azurewebsites.net' },
];
const dnsRecords: Array<[string, FixtureRecord]> = [
  [`www.${apex}`, { type: 'A', data: FIXTURE_IP }],
  [hidden, { type: 'CNAME', data: 'dw-campaign.azurewebsites.net' }],
];
const ZONE_FILE = `$ORIGIN ${apex}.
$TTL 300
@              SOA  ns1.provider.net. hostmaster ( 1 7200 900 1209600 300 )
www            A    ${FIXTURE_IP}
campaign-2019  CNAME dw-campaign.azurewebsites.net.   ; the 2019 campaign
ns1.elsewhere.test.  A  192.0.2.53
`;

const secrets = {
  cloudflare: 'cf-cli-token-0123456789abcdef0123456789',
  digitalocean: 'dop_v1_cli0123456789abcdef0123456789abcdef',
  awsKey: 'AKIACLIFIXTURE000001',
  awsSecret: 'cli/secret/0123456789abcdefghijklmnopqrstuvw',
};

let fixtures: ScanFixtures;
let dir: string;
let cloudflare: FakeProvider;
let digitalocean: FakeProvider;
let route53: FakeProvider;
let google: GoogleFake;

beforeAll(async () => {
  fixtures = await startScanFixtures(zoneFrom({ apex, records: dnsRecords }));
  fixtures.dns.axfr.zones.add(apex);
  [cloudflare, digitalocean, route53, google] = await Promise.all([
    startCloudflareFake({ token: secrets.cloudflare }),
    startDigitalOceanFake({ token: secrets.digitalocean }),
    startRoute53Fake({ accessKeyId: secrets.awsKey, secretAccessKey: secrets.awsSecret }),
    startGoogleFake(),
  ]);
  for (const fake of [cloudflare, digitalocean, route53, google]) fake.zones.set(apex, [...zoneRecords]);
  dir = mkdtempSync(join(tmpdir(), 'dw-zone-cli-'));
  writeFileSync(join(dir, 'zone.db'), ZONE_FILE);
  writeFileSync(join(dir, 'broken.db'), '$TTL 300\nwww A 192.0.2.1\n$INCLUDE /etc/passwd\n');
  writeFileSync(join(dir, 'words.txt'), 'www\n');
  writeFileSync(join(dir, 'sa.json'), google.serviceAccountJson);
});
afterAll(async () => {
  await Promise.all([
    fixtures?.close(),
    cloudflare?.close(),
    digitalocean?.close(),
    route53?.close(),
    google?.close(),
  ]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[], env: Record<string, string> = {}) => runCli(['scan', ...args], env);

const flags = () => [
  apex,
  '--json',
  ...fixtures.cliFlags(),
  '--no-ct',
  '--wordlist',
  join(dir, 'words.txt'),
  '--timeout-ms',
  '1000',
];

function hiddenFinding(stdout: string) {
  const doc = JSON.parse(stdout);
  return doc.findings.find((f: { subdomain: string }) => f.subdomain === hidden);
}

describe('danglewatch scan with a zone source', { timeout: 90_000 }, () => {
  it('without the zone, the record that neither CT nor the wordlist holds is not found', async () => {
    const { stdout } = await run(flags());
    expect(JSON.parse(stdout).subdomains).not.toContain(hidden);
    expect(hiddenFinding(stdout)).toBeUndefined();
  });

  it('--zone-file and --axfr reveal it, and the finding says the zone did', async () => {
    for (const [flag, value, notice] of [
      [
        '--zone-file',
        join(dir, 'zone.db'),
        `danglewatch scan: --zone-file ${join(dir, 'zone.db')}: 1 record outside ${apex} skipped (the first at line 6)\n`,
      ],
      ['--axfr', `${FIXTURE_IP}:${fixtures.dns.port}`, ''],
    ] as const) {
      const { code, stdout, stderr } = await run([...flags(), flag, value]);
      expect(stderr).toBe(notice);
      expect(code).toBe(1);
      expect(hiddenFinding(stdout)).toMatchObject({ service: 'Azure App Service', sources: ['zone'] });
    }
  });

  it('--provider reads the zone from each provider with the credential from the environment', async () => {
    const cases: Array<[string, Record<string, string>, FakeProvider]> = [
      [
        'cloudflare',
        { CLOUDFLARE_API_TOKEN: secrets.cloudflare, CLOUDFLARE_API_URL: cloudflare.url },
        cloudflare,
      ],
      [
        'route53',
        {
          AWS_ACCESS_KEY_ID: secrets.awsKey,
          AWS_SECRET_ACCESS_KEY: secrets.awsSecret,
          ROUTE53_ENDPOINT: route53.url,
        },
        route53,
      ],
      [
        'digitalocean',
        { DIGITALOCEAN_TOKEN: secrets.digitalocean, DIGITALOCEAN_API_URL: digitalocean.url },
        digitalocean,
      ],
      [
        'gcloud',
        {
          GOOGLE_APPLICATION_CREDENTIALS: join(dir, 'sa.json'),
          GOOGLE_DNS_API_URL: google.url,
          GOOGLE_OAUTH_TOKEN_URL: google.tokenUrl,
        },
        google,
      ],
    ];
    for (const [provider, env, fake] of cases) {
      const { code, stdout, stderr } = await run([...flags(), '--provider', provider], env);
      expect(stderr, provider).toBe('');
      expect(code, provider).toBe(1);
      expect(hiddenFinding(stdout), provider).toMatchObject({ sources: ['zone'] });
      expect(
        fake.requests.filter((r) => r.method !== 'GET' && r.path !== '/token'),
        provider,
      ).toEqual([]);
    }
  });

  it('a refused credential or transfer fails the scan with the source’s own message', async () => {
    const refused = await run([...flags(), '--provider', 'cloudflare'], {
      CLOUDFLARE_API_TOKEN: 'cf-wrong-token-secret-000000000000000',
      CLOUDFLARE_API_URL: cloudflare.url,
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'danglewatch scan: Cloudflare did not accept the credential (Invalid access token (code 9109))\n',
    );
    fixtures.dns.axfr.zones.delete(apex);
    const axfr = await run([...flags(), '--axfr', `${FIXTURE_IP}:${fixtures.dns.port}`]).finally(() =>
      fixtures.dns.axfr.zones.add(apex),
    );
    expect(axfr.code).toBe(2);
    expect(axfr.stderr).toBe(
      `danglewatch scan: zone transfer server ${FIXTURE_IP}:${fixtures.dns.port} refused the transfer of ${apex}: REFUSED\n`,
    );
    const file = await run([...flags(), '--zone-file', join(dir, 'broken.db')]);
    expect(file.code).toBe(2);
    expect(file.stderr).toBe(
      `danglewatch scan: --zone-file ${join(dir, 'broken.db')}: line 3: $INCLUDE is not supported: put the included records in the file itself\n`,
    );
  });

  it('refuses what the command line gets wrong before scanning', async () => {
    const cases: Array<[string[], Record<string, string>, string]> = [
      [
        ['--provider', 'cloudflare'],
        { CLOUDFLARE_API_TOKEN: '' },
        '--provider cloudflare reads its credential from CLOUDFLARE_API_TOKEN, which is not set',
      ],
      [
        ['--provider', 'route53'],
        { AWS_ACCESS_KEY_ID: 'AKIA', AWS_SECRET_ACCESS_KEY: '' },
        '--provider route53 reads its credential from AWS_SECRET_ACCESS_KEY, which is not set',
      ],
      [
        ['--provider', 'cloudflare'],
        { CLOUDFLARE_API_TOKEN: 'cf-token-\u201cpasted\u201d' },
        `--provider cloudflare: The API token ${INPUT_MESSAGES.notAscii}`,
      ],
      [
        ['--provider', 'azure'],
        {},
        "--provider must be one of cloudflare, route53, digitalocean, gcloud, got 'azure'",
      ],
      [
        ['--zone-file', join(dir, 'absent.db')],
        {},
        `cannot read --zone-file '${join(dir, 'absent.db')}': ENOENT`,
      ],
      [
        ['--zone-file', join(dir, 'zone.db'), '--axfr', '192.0.2.1'],
        {},
        'give one zone source at most, not --zone-file and --axfr',
      ],
      [
        ['--axfr', 'ns1.example.com:99999'],
        {},
        "--axfr: invalid port in zone transfer server 'ns1.example.com:99999'",
      ],
      [
        ['--provider', 'cloudflare', '--server', 'http://127.0.0.1:1', '--key', 'dw_x'],
        {},
        '--provider cannot be used with --server: the server scans with its own settings',
      ],
    ];
    for (const [args, env, message] of cases) {
      const { code, stderr } = await run([apex, ...args], env);
      expect(code, message).toBe(2);
      expect(stderr).toBe(`danglewatch scan: ${message}\n`);
    }
  });

  it('--help lists the zone sources and their environment variables', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    for (const text of [
      '--zone-file FILE',
      '--axfr HOST[:PORT]',
      '--provider cloudflare|route53|digitalocean|gcloud',
      'CLOUDFLARE_API_TOKEN',
      'AWS_SECRET_ACCESS_KEY',
      'DIGITALOCEAN_TOKEN',
      'GOOGLE_APPLICATION_CREDENTIALS',
    ])
      expect(stdout).toContain(text);
  });
});
