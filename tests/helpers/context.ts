import type { WorkspaceContext } from '../../src/core/access.ts';
import { PERSONAL_WORKSPACE_NAME } from '../../src/model/workspaces.ts';

/**
 * The context a signed-in account has in its own personal workspace, as server/workspace-scope.ts
 * builds it: for tests and benches that call services directly.
 */
export function personalContext(
  userId: string,
  account: { tier: string; email: string | null; emailVerified?: boolean },
): WorkspaceContext {
  return {
    workspace: { id: userId, name: PERSONAL_WORKSPACE_NAME, personal: true, tier: account.tier },
    actor: {
      userId,
      email: account.email,
      emailVerified: account.emailVerified ?? true,
      displayName: null,
      ip: undefined,
      via: 'session',
    },
    role: 'owner',
  };
}
