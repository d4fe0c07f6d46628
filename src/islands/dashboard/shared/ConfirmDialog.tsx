import { type ReactNode, useState } from 'react';
import { DangerFooter } from './DangerFooter.tsx';
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
  /** What the user gives before confirming (a name typed as it is), under the sentence. */
  confirmation?: ReactNode;
  /** False until `confirmation` is satisfied. */
  ready?: boolean;
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
  confirmation,
  ready,
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
        <DangerFooter
          confirmLabel={confirmLabel}
          busyLabel={busyLabel}
          busy={busy}
          ready={ready}
          onConfirm={() => void confirm()}
          onCancel={onClose}
        />
      }
    >
      <p className="text-sm text-slate-700">{children}</p>
      {confirmation && <div className="mt-4 text-sm">{confirmation}</div>}
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-800">
          {error}
        </p>
      )}
    </Dialog>
  );
}
