import type { FindingRecord } from '../../model/contract.ts';

/** The dashboard link's parameter naming one finding by its key (tickets, pages and Linear attach it). */
export const FINDING_PARAM = 'finding';

/** The finding key a dashboard link names, if any. */
export function linkedFindingKey(search: string): string | null {
  const key = new URLSearchParams(search).get(FINDING_PARAM)?.trim();
  return key ? key : null;
}

/** Why a finding link opened nothing, said where the finding would have opened. */
export interface MissingFinding {
  title: string;
  description: string;
}

/**
 * Said when the workspace holds no finding by the link's key: an unknown or mistyped key, a finding
 * whose domain was removed, or another workspace's (which answers exactly like a missing one).
 */
export function missingFinding(key: string, workspaceName?: string): MissingFinding {
  const where = workspaceName ? `this workspace (${workspaceName})` : 'this workspace';
  return {
    title: 'Finding not found in this workspace',
    description: `The link names ${key}, which was not found in ${where}: its domain may have been removed, or the link belongs to another workspace (switch to it and open the link again).`,
  };
}

/** What a finding link opens: the finding the key names, or why nothing opened. */
export function linkedFinding(
  key: string,
  found: readonly FindingRecord[],
  workspaceName?: string,
): { record: FindingRecord } | MissingFinding {
  const record = found.find((r) => r.key === key);
  return record ? { record } : missingFinding(key, workspaceName);
}
