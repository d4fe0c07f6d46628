// The clouds' address ranges: the bundled copy is dated and sourced, each cloud's published format
// is read, and a real cloud address is told from others (the one place real cloud addresses appear:
// nothing here is probed or connected to).
import { describe, expect, it } from 'vitest';
import { cloudRangesOf, loadRanges, parsePublishedRanges } from '../../../../src/scanner/cloud/ranges.ts';
import { ScanContext } from '../../../../src/scanner/context.ts';

const today = new Date('2026-11-27T12:00:00Z');

describe('cloud ranges', () => {
  it('bundles a dated, sourced entry for each connectable cloud', () => {
    const file = loadRanges();
    for (const cloud of ['aws', 'azure', 'gcloud', 'digitalocean'] as const) {
      const entry = file.clouds[cloud];
      expect(entry?.published, cloud).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(entry?.source, cloud).toMatch(/danglewatch ranges update/);
      // The clouds' own lists, not a summary: hundreds to thousands of blocks each.
      expect(entry?.prefixes.length, cloud).toBeGreaterThan(500);
    }
  });

  it('tells which cloud a real address is in, and none for others', () => {
    const ranges = cloudRangesOf(loadRanges());
    const lookup = new ScanContext({} as never, {} as never, undefined, 1, ranges);
    expect(lookup.cloudRange('3.120.1.1')).toMatchObject({ cloud: 'aws', provider: 'AWS' });
    expect(lookup.cloudRange('35.150.0.1')).toBeUndefined();
    expect(lookup.cloudRange('35.192.10.1')).toMatchObject({ cloud: 'gcloud' });
    expect(lookup.cloudRange('20.1.2.3')).toMatchObject({ cloud: 'azure' });
    expect(lookup.cloudRange('159.65.1.1')).toMatchObject({ cloud: 'digitalocean' });
    expect(lookup.cloudRange('93.184.216.34')).toBeUndefined();
    // Small blocks of the published lists, which no coarse summary holds.
    expect(lookup.cloudRange('15.205.10.1')).toMatchObject({ cloud: 'aws', cidr: '15.205.0.0/16' });
    expect(lookup.cloudRange('5.101.100.1')).toMatchObject({ cloud: 'digitalocean', cidr: '5.101.96.0/21' });
    expect(lookup.cloudRange('2600:1900:8000::10')).toMatchObject({ cloud: 'gcloud' });
  });

  it("reads AWS's ip-ranges.json: its EC2 and Global Accelerator blocks, v4 and v6", () => {
    const text = JSON.stringify({
      syncToken: '1764201234',
      createDate: '2026-11-26-23-13-05',
      prefixes: [
        {
          ip_prefix: '3.2.34.0/26',
          region: 'af-south-1',
          service: 'EC2',
          network_border_group: 'af-south-1',
        },
        {
          ip_prefix: '13.32.0.0/15',
          region: 'GLOBAL',
          service: 'CLOUDFRONT',
          network_border_group: 'GLOBAL',
        },
        {
          ip_prefix: '15.197.0.0/17',
          region: 'GLOBAL',
          service: 'GLOBALACCELERATOR',
          network_border_group: 'GLOBAL',
        },
      ],
      ipv6_prefixes: [
        {
          ipv6_prefix: '2600:1f14::/35',
          region: 'us-west-2',
          service: 'EC2',
          network_border_group: 'us-west-2',
        },
      ],
    });
    expect(parsePublishedRanges(text, 'https://ip-ranges.amazonaws.com/ip-ranges.json', today)).toEqual({
      cloud: 'aws',
      entry: {
        published: '2026-11-26',
        source: 'https://ip-ranges.amazonaws.com/ip-ranges.json',
        prefixes: ['3.2.34.0/26', '15.197.0.0/17', '2600:1f14::/35'],
      },
    });
  });

  it("reads Google Cloud's cloud.json, Azure's service tags and DigitalOcean's CSV", () => {
    const google = JSON.stringify({
      syncToken: '1764201234',
      creationTime: '2026-11-26T10:00:55.123',
      prefixes: [
        { ipv4Prefix: '34.1.208.0/20', service: 'Google Cloud', scope: 'africa-south1' },
        { ipv6Prefix: '2600:1900:8000::/44', service: 'Google Cloud', scope: 'us-east1' },
      ],
    });
    expect(parsePublishedRanges(google, 'cloud.json', today)).toMatchObject({
      cloud: 'gcloud',
      entry: { published: '2026-11-26', prefixes: ['34.1.208.0/20', '2600:1900:8000::/44'] },
    });
    const azure = JSON.stringify({
      changeNumber: 380,
      cloud: 'Public',
      values: [
        {
          name: 'AzureCloud',
          id: 'AzureCloud',
          properties: { addressPrefixes: ['4.144.0.0/12', '2603:1000::/40'] },
        },
        {
          name: 'AzureCloud.eastus',
          id: 'AzureCloud.eastus',
          properties: { addressPrefixes: ['4.156.0.0/15'] },
        },
      ],
    });
    expect(parsePublishedRanges(azure, 'ServiceTags_Public_20261123.json', today)).toMatchObject({
      cloud: 'azure',
      entry: { published: '2026-11-27', prefixes: ['4.144.0.0/12', '2603:1000::/40'] },
    });
    const csv = '5.101.96.0/21,NL,NL-NH,Amsterdam,1098 XH\n2a03:b0c0::/48,NL,NL-NH,Amsterdam,1098 XH\n';
    expect(parsePublishedRanges(csv, 'google.csv', today)).toMatchObject({
      cloud: 'digitalocean',
      entry: { prefixes: ['5.101.96.0/21', '2a03:b0c0::/48'] },
    });
  });

  it('refuses what is not a published list, or holds no address block', () => {
    expect(() => parsePublishedRanges('{"hello":1}', 'x', today)).toThrow(/not a list this command reads/);
    expect(() => parsePublishedRanges('not-an-address,NL\n', 'x', today)).toThrow(/not an address block/);
  });
});

describe('addresses in one spelling', () => {
  it('writes IPv6 compressed and lower case, and leaves IPv4 as it is', async () => {
    const { canonicalAddress } = await import('../../../../src/connectors/cloud/provider.ts');
    expect(canonicalAddress('2600:1F18:0:0:0:0:0:1')).toBe('2600:1f18::1');
    expect(canonicalAddress('2600:1f18::1')).toBe('2600:1f18::1');
    expect(canonicalAddress('fd00:0050:0000::0001')).toBe('fd00:50::1');
    expect(canonicalAddress('3.120.1.1')).toBe('3.120.1.1');
  });
});
