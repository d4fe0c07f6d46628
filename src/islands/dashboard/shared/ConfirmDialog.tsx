import { type ReactNode, useState } from 'react';
import { BUTTON } from './buttons.ts';
import { Dialog } from './Dialog.tsx';

interface ConfirmDialogProps {
  title: string;
  /** The question, under the title. */
  question: string;
  /** The danger button: 'Remove Domain'; while it works: 'Removing...'. */
  confirmLabel: string;
  busyLabel: string;
  /** Shown when `onConfirm` fails without a message of its own. */
  fallbackError: string;
  /** Does the work; the dialog stays open with the error shown if it throws. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
  /** What confirming means, in a sentence or two. */
  children: ReactNode;
}

/** Asks before a destructive action, runs it, and shows why when it fails. */
export function ConfirmDialog({
  title,
  question,
  confirmLabel,
  busyLabel,
  fallbackError,
  onConfirm,
  onClose,
  children,
}: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : fallbackError);
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={title}
      description={question}
      onClose={onClose}
      footer={
        <>
          <button type="button" className={BUTTON.secondary} onClick={onClose}>
            Cancel
          </button>
          <button type="button" className={BUTTON.danger} onClick={confirm} disabled={busy}>
            {busy ? busyLabel : confirmLabel}
          </button>
        </>
      }
    >
      <p className="text-sm text-slate-700">{children}</p>
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-800">
          {error}
        </p>
      )}
    </Dialog>
  );
}
