import type { FindingRecord } from '../../model/contract.ts';

/** The dashboard link's parameter naming one finding by its key (tickets, pages and Linear attach it). */
export const FINDING_PARAM = 'finding';

/** The finding key a dashboard link names, if any. */
export function linkedFindingKey(search: string): string | null {
  const key = new URLSearchParams(search).get(FINDING_PARAM)?.trim();
  return key ? key : null;
}

/**
 * What a finding link opens: the finding the key names, or, when the workspace holds none by that
 * key, why nothing opened (its domain was removed, or the link is another workspace's).
 */
export function linkedFinding(
  key: string,
  found: readonly FindingRecord[],
): { record: FindingRecord } | { title: string; description: string } {
  const record = found.find((r) => r.key === key);
  if (record) return { record };
  return {
    title: 'Finding not found',
    description: `No finding ${key} in this workspace: its domain may have been removed, or the link belongs to another workspace (switch to it and open the link again).`,
  };
}
