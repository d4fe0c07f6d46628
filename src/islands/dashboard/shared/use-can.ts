import { useStore } from '@nanostores/react';
import { $currentWorkspace } from '../../../lib/dashboard/workspaces.ts';
import { can, type WorkspaceAction } from '../../../model/workspaces.ts';

/**
 * Whether the caller's role in the current workspace may do `action`: what it may not is hidden
 * (the API refuses it anyway). Without a workspace list the calls act on the personal workspace,
 * which the caller owns.
 */
export function useCan(action: WorkspaceAction): boolean {
  const workspace = useStore($currentWorkspace);
  return workspace ? can(workspace.role, action) : true;
}

/** Said where a viewer would otherwise find the button to begin with. */
export const READ_ONLY_HINT =
  'Your role in this workspace reads only: the Member role or higher adds domains and starts scans.';
