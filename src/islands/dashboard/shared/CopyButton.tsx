import { DASHBOARD_MESSAGES } from '../../../lib/dashboard/messages.ts';
import { toast } from '../../../lib/toast.ts';
import { BUTTON } from './buttons.ts';

interface CopyButtonProps {
  value: string;
  /** Names the button for screen readers: 'Copy TXT value'. */
  label: string;
}

/** Copies a DNS record field and says so: 'Copied: DNS record copied to clipboard'. */
export function CopyButton({ value, label }: CopyButtonProps) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast({ title: DASHBOARD_MESSAGES.copied, description: DASHBOARD_MESSAGES.copiedRecord });
    } catch {
      toast({
        title: 'Copy failed',
        description: 'Select the text and copy it by hand.',
        variant: 'destructive',
      });
    }
  };
  return (
    <button type="button" className={BUTTON.small} onClick={copy} aria-label={label}>
      Copy
    </button>
  );
}
