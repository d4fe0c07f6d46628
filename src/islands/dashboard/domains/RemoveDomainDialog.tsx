import { useState } from 'react';
import type { DomainView } from '../../../lib/dashboard/contract.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { dropDomain } from '../../../lib/dashboard/store.ts';
import { toast } from '../../../lib/toast.ts';
import { BUTTON } from '../shared/buttons.ts';
import { Dialog } from '../shared/Dialog.tsx';

interface RemoveDomainDialogProps {
  domain: DomainView;
  onClose: () => void;
}

/** Confirms, then deletes the domain on the server (its schedule goes with it); the list drops it. */
export function RemoveDomainDialog({ domain, onClose }: RemoveDomainDialogProps) {
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setRemoving(true);
    setError(null);
    try {
      await dashboardApi().domains.remove(domain.id);
      dropDomain(domain.id);
      toast({ title: 'Domain Removed', description: `${domain.domain} is no longer monitored.` });
      onClose();
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'The domain could not be removed.');
      setRemoving(false);
    }
  };
  return (
    <Dialog
      title="Remove Domain"
      description={`Stop monitoring ${domain.domain}?`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className={BUTTON.secondary} onClick={onClose}>
            Cancel
          </button>
          <button type="button" className={BUTTON.danger} onClick={remove} disabled={removing}>
            {removing ? 'Removing...' : 'Remove Domain'}
          </button>
        </>
      }
    >
      <p className="text-sm text-slate-700">
        Its scheduled scans stop at once, and its scan history is deleted under your plan's retention rule. To
        monitor it again you add it and prove ownership again.
      </p>
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-800">
          {error}
        </p>
      )}
    </Dialog>
  );
}
