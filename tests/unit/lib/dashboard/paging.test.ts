import { describe, expect, it } from 'vitest';
import { appendPage, hasMoreScans } from '../../../../src/lib/dashboard/paging.ts';
import type { ScanView } from '../../../../src/model/contract.ts';

const scan = (id: string) => ({ scan_id: id }) as ScanView;

describe("'Load More Scans'", () => {
  it('appends the next page and skips scans already shown', () => {
    const shown = [scan('a'), scan('b')];
    expect(appendPage(shown, [scan('b'), scan('c')]).map((s) => s.scan_id)).toEqual(['a', 'b', 'c']);
  });

  it('shows while fewer scans are shown than the server has', () => {
    expect(hasMoreScans(10, 11)).toBe(true);
    expect(hasMoreScans(10, 10)).toBe(false);
    expect(hasMoreScans(0, 0)).toBe(false);
  });
});
