import { BUTTON } from './buttons.ts';

interface DangerFooterProps {
  /** The danger button: 'Remove Domain'; while it works: 'Removing...'. */
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  /** False until the dialog has what it asks for (a typed name, a ticked box). */
  ready?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A destructive dialog's buttons: Cancel, and the danger button; neither while the action runs. */
export function DangerFooter({
  confirmLabel,
  busyLabel,
  busy,
  ready = true,
  onConfirm,
  onCancel,
}: DangerFooterProps) {
  return (
    <>
      <button type="button" className={BUTTON.secondary} onClick={onCancel} disabled={busy}>
        Cancel
      </button>
      <button type="button" className={BUTTON.danger} disabled={!ready || busy} onClick={onConfirm}>
        {busy ? busyLabel : confirmLabel}
      </button>
    </>
  );
}
