import type { DnsGuide } from '../../../lib/dashboard/dns-guides.ts';
import { BUTTON } from '../shared/buttons.ts';
import { Dialog } from '../shared/Dialog.tsx';

interface DnsGuideDialogProps {
  guide: DnsGuide;
  txtValue: string;
  onClose: () => void;
}

/** A quick-setup guide: how to publish the TXT record at one kind of DNS host. */
export function DnsGuideDialog({ guide, txtValue, onClose }: DnsGuideDialogProps) {
  return (
    <Dialog
      title={`Add the TXT record at ${guide.title}`}
      onClose={onClose}
      footer={
        <button type="button" className={BUTTON.primary} onClick={onClose}>
          Got it
        </button>
      }
    >
      <ol className="list-inside list-decimal space-y-2 text-sm text-slate-800">
        {guide.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p className="mt-3 text-sm text-slate-700">
        The value: <code className="font-mono break-all text-ink">{txtValue}</code>
      </p>
      <p className="mt-2 text-xs text-slate-600">{guide.note}</p>
    </Dialog>
  );
}
