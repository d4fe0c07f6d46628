import { useStore } from '@nanostores/react';
import { type FormEvent, useId, useState } from 'react';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import {
  $workspaceId,
  $workspaces,
  addWorkspace,
  switchWorkspace,
} from '../../../lib/dashboard/workspaces.ts';
import { serverMessage } from '../../../lib/request/errors.ts';
import { getPlan } from '../../../model/plans.ts';
import { ROLE_LABELS, WORKSPACE_MESSAGES, type WorkspaceView } from '../../../model/workspaces.ts';
import { BUTTON } from '../shared/buttons.ts';
import { WorkspaceNameInput } from './WorkspaceNameInput.tsx';

function optionLabel(workspace: WorkspaceView): string {
  const name = workspace.personal ? `${workspace.name} (personal)` : workspace.name;
  return `${name} · ${ROLE_LABELS[workspace.role]} · ${getPlan(workspace.plan).name}`;
}

/** The sidebar's workspace choice: each workspace with the caller's role and its plan; a new team one. */
export function WorkspaceSwitcher() {
  const { workspaces, loaded } = useStore($workspaces);
  const current = useStore($workspaceId);
  const [creating, setCreating] = useState(false);
  const selectId = useId();
  if (!loaded || workspaces.length === 0) return null;

  return (
    <div className="mt-6" data-testid="workspace-switcher">
      <label
        htmlFor={selectId}
        className="block text-xs font-semibold tracking-wide text-slate-600 uppercase"
      >
        Workspace
      </label>
      <select
        id={selectId}
        className="mt-1 w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-ink"
        value={current ?? ''}
        onChange={(event) => switchWorkspace(event.target.value)}
      >
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {optionLabel(w)}
          </option>
        ))}
      </select>
      {creating ? (
        <CreateWorkspaceForm onDone={() => setCreating(false)} />
      ) : (
        <button type="button" className={`${BUTTON.small} mt-2 w-full`} onClick={() => setCreating(true)}>
          Create team workspace
        </button>
      )}
    </div>
  );
}

function CreateWorkspaceForm({ onDone }: { onDone: () => void }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { workspace } = await dashboardApi().workspaces.create(name.trim());
      // A new team workspace starts on Free and becomes the one the dashboard shows.
      addWorkspace(workspace);
      onDone();
    } catch (failure) {
      setError(serverMessage(failure));
      setBusy(false);
    }
  };

  return (
    <form className="mt-2 space-y-2" onSubmit={submit} aria-label="Create team workspace">
      <label htmlFor={inputId} className="block text-xs font-medium text-slate-700">
        Team workspace name
      </label>
      <WorkspaceNameInput
        id={inputId}
        value={name}
        onChange={setName}
        className="w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm"
      />
      <p className="text-xs text-slate-700" data-testid="new-team-plan">
        {WORKSPACE_MESSAGES.newTeamStartsFree(getPlan('free'), getPlan('intro'))}
      </p>
      {error && (
        <p role="alert" className="text-xs text-red-700">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <button type="submit" className={BUTTON.small} disabled={busy || !name.trim()}>
          Create
        </button>
        <button type="button" className={BUTTON.small} onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
