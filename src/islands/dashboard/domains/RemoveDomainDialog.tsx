import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { dropDomain } from '../../../lib/dashboard/store.ts';
import { toast } from '../../../lib/toast.ts';
import type { DomainView } from '../../../model/contract.ts';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';

interface RemoveDomainDialogProps {
  domain: DomainView;
  onClose: () => void;
}

/** Confirms, then deletes the domain on the server (its schedule goes with it); the list drops it. */
export function RemoveDomainDialog({ domain, onClose }: RemoveDomainDialogProps) {
  return (
    <ConfirmDialog
      title="Remove Domain"
      question={`Stop monitoring ${domain.domain}?`}
      confirmLabel="Remove Domain"
      busyLabel="Removing..."
      fallbackError="The domain could not be removed."
      onClose={onClose}
      onConfirm={async () => {
        await dashboardApi().domains.remove(domain.id);
        dropDomain(domain.id);
        toast({ title: 'Domain Removed', description: `${domain.domain} is no longer monitored.` });
        onClose();
      }}
    >
      Its scheduled scans stop at once, and its scan history is deleted under your plan's retention rule. To
      monitor it again you add it and prove ownership again.
    </ConfirmDialog>
  );
}
