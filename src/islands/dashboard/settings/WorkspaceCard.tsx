import { type FormEvent, useId, useState } from 'react';
import { serverMessage } from '../../../lib/request/errors.ts';
import { can, type WorkspaceView } from '../../../model/workspaces.ts';
import { BUTTON } from '../shared/buttons.ts';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { TypedField } from '../shared/TypedField.tsx';
import { WorkspaceNameInput } from '../workspaces/WorkspaceNameInput.tsx';

interface WorkspaceCardProps {
  workspace: WorkspaceView;
  /** Whether another member is owner too: the last owner cannot leave. */
  otherOwner: boolean;
  rename: (name: string) => Promise<void>;
  remove: () => Promise<void>;
  /** Asks to leave (the members screen confirms it). */
  onLeave: () => void;
}

/**
 * Settings → Members, a team workspace: its owner renames or deletes it; anyone but its last owner
 * leaves it. What the role cannot do is not offered (the API refuses it anyway).
 */
export function WorkspaceCard({ workspace, otherOwner, rename, remove, onLeave }: WorkspaceCardProps) {
  const owner = can(workspace.role, 'workspace.manage');
  const [deleting, setDeleting] = useState(false);
  return (
    <section className="rounded-lg border border-slate-200 p-5" data-testid="workspace-card">
      <h3 className="text-base font-semibold text-ink">Workspace</h3>
      {owner && <RenameForm key={workspace.id} current={workspace.name} rename={rename} />}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        {(!owner || otherOwner) && (
          <button type="button" className={BUTTON.secondary} onClick={onLeave}>
            Leave workspace
          </button>
        )}
        {owner && (
          <button type="button" className={BUTTON.danger} onClick={() => setDeleting(true)}>
            Delete workspace
          </button>
        )}
      </div>
      {owner && !otherOwner && (
        <p className="mt-2 text-slate-700">
          You are its only owner: to leave it, make another member owner first.
        </p>
      )}
      {deleting && (
        <DeleteWorkspaceDialog workspace={workspace} remove={remove} onClose={() => setDeleting(false)} />
      )}
    </section>
  );
}

function RenameForm({ current, rename }: { current: string; rename: (name: string) => Promise<void> }) {
  const [name, setName] = useState(current);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const trimmed = name.trim();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await rename(trimmed);
    } catch (cause) {
      setError(serverMessage(cause));
    }
    setBusy(false);
  };
  return (
    <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-3" aria-label="Rename">
      <div>
        <label htmlFor={inputId} className="block text-xs font-medium text-slate-700">
          Name
        </label>
        <WorkspaceNameInput
          id={inputId}
          value={name}
          onChange={setName}
          className="mt-1 rounded-md border border-slate-300 px-2 py-1.5"
        />
      </div>
      <button type="submit" className={BUTTON.secondary} disabled={busy || !trimmed || trimmed === current}>
        {busy ? 'Renaming...' : 'Rename'}
      </button>
      {error && (
        <p role="alert" className="w-full text-red-800">
          {error}
        </p>
      )}
    </form>
  );
}

/** Deletion only once the workspace's name is typed as it is (spaces around it aside). */
function DeleteWorkspaceDialog({
  workspace,
  remove,
  onClose,
}: {
  workspace: WorkspaceView;
  remove: () => Promise<void>;
  onClose: () => void;
}) {
  const [typed, setTyped] = useState('');
  return (
    <ConfirmDialog
      title="Delete workspace"
      question={`Delete ${workspace.name} for everyone in it?`}
      confirmLabel="Delete workspace"
      busyLabel="Deleting..."
      fallbackError="The workspace could not be deleted."
      ready={typed.trim() === workspace.name}
      confirmation={
        <TypedField label={`Type ${workspace.name} to confirm`} value={typed} onChange={setTyped} />
      }
      onConfirm={async () => {
        try {
          await remove();
        } catch (cause) {
          throw new Error(serverMessage(cause));
        }
      }}
      onClose={onClose}
    >
      Its domains, scans, findings, DNS connections, webhooks, API keys and invitations are deleted for good,
      and its members lose access (their own accounts stay). This cannot be undone.
    </ConfirmDialog>
  );
}
