import { describe, expect, it } from 'vitest';
import { inventoryLine } from '../../../../src/lib/dashboard/inventory-line.ts';

const now = Date.parse('2026-11-25T12:00:00.000Z');

describe('the inventory line of a domain card', () => {
  it('says how many records, from which provider, read how long ago', () => {
    expect(
      inventoryLine({ source: 'cloudflare', readAt: '2026-11-25T11:56:00.000Z', records: 312 }, now),
    ).toBe('312 records from Cloudflare, read 4m ago');
    expect(inventoryLine({ source: 'gcloud', readAt: '2026-11-25T09:00:00.000Z', records: 1 }, now)).toBe(
      '1 record from Google Cloud DNS, read 3h ago',
    );
    expect(inventoryLine({ source: 'route53', readAt: '2026-11-25T11:59:30.000Z', records: 2 }, now)).toBe(
      '2 records from AWS Route 53, read just now',
    );
  });

  it('says when a zone file was uploaded, with thousands grouped', () => {
    expect(
      inventoryLine({ source: 'zone-file', readAt: '2026-11-23T12:00:00.000Z', records: 1234 }, now),
    ).toBe('1,234 records from a zone file uploaded 2d ago');
  });

  it('is null for a domain without an inventory', () => {
    expect(inventoryLine(null, now)).toBeNull();
  });
});
