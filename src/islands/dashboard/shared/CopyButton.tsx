import { DASHBOARD_MESSAGES } from '../../../lib/dashboard/messages.ts';
import { toast } from '../../../lib/toast.ts';
import { BUTTON } from './buttons.ts';

interface CopyButtonProps {
  value: string;
  /** Names the button for screen readers: 'Copy TXT value'. */
  label: string;
  /** What the toast says was copied. */
  copied?: string;
}

/** Copies a value and says so: 'Copied: DNS record copied to clipboard' unless told otherwise. */
export function CopyButton({ value, label, copied = DASHBOARD_MESSAGES.copiedRecord }: CopyButtonProps) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast({ title: DASHBOARD_MESSAGES.copied, description: copied });
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
