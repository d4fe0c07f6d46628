import { describe, expect, it } from 'vitest';
import { inventoryLine } from '../../../../src/lib/dashboard/inventory-line.ts';

const now = Date.parse('2026-11-25T12:00:00.000Z');

describe('the inventory line of a domain card', () => {
  it('says how many records, from which provider, read how long ago', () => {
    expect(
      inventoryLine(
        { source: 'cloudflare', readAt: '2026-11-25T11:56:00.000Z', records: 312, sources: [] },
        now,
      ),
    ).toBe('312 records from Cloudflare, read 4m ago');
    expect(
      inventoryLine({ source: 'gcloud', readAt: '2026-11-25T09:00:00.000Z', records: 1, sources: [] }, now),
    ).toBe('1 record from Google Cloud DNS, read 3h ago');
    expect(
      inventoryLine({ source: 'route53', readAt: '2026-11-25T11:59:30.000Z', records: 2, sources: [] }, now),
    ).toBe('2 records from AWS Route 53, read just now');
  });

  it('says when a zone file was uploaded, with thousands grouped', () => {
    expect(
      inventoryLine(
        { source: 'zone-file', readAt: '2026-11-23T12:00:00.000Z', records: 1234, sources: [] },
        now,
      ),
    ).toBe('1,234 records from a zone file uploaded 2d ago');
  });

  it('counts each source as itself: a zone file uploaded beside a connected zone is not the sum', () => {
    const zoneFile = { source: 'zone-file' as const, readAt: '2026-11-25T11:58:00.000Z', records: 5 };
    const cloudflare = { source: 'cloudflare' as const, readAt: '2026-11-25T09:00:00.000Z', records: 64 };
    expect(inventoryLine({ ...zoneFile, records: 69, sources: [zoneFile, cloudflare] }, now)).toBe(
      '5 records from a zone file uploaded 2m ago; 64 records from Cloudflare, read 3h ago',
    );
    expect(inventoryLine({ ...cloudflare, sources: [cloudflare] }, now)).toBe(
      '64 records from Cloudflare, read 3h ago',
    );
  });

  it('is null for a domain without an inventory', () => {
    expect(inventoryLine(null, now)).toBeNull();
  });
});
