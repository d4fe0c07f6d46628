import { useId, useState } from 'react';
import { failureMessage } from '../../../lib/dashboard/dns-actions.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { scansChanged } from '../../../lib/dashboard/store.ts';
import { toast } from '../../../lib/toast.ts';

interface ZoneFileUploadProps {
  domainId: string;
  domainName: string;
  onUploaded: () => void;
}

/** 'Upload zone file': a BIND master file becomes the domain's inventory; an error names the line. */
export function ZoneFileUpload({ domainId, domainName, onUploaded }: ZoneFileUploadProps) {
  const inputId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const upload = async (file: File) => {
    setBusy(true);
    setError(null);
    try {
      const { records, scanId } = await dashboardApi().domains.uploadZoneFile(domainId, await file.text());
      toast({
        title: 'Zone File Uploaded',
        description: `${domainName}: ${records.toLocaleString('en-US')} records kept as its inventory. ${
          scanId
            ? 'The names it brought are being scanned now; the findings show on the Scans screen in a minute or two.'
            : 'Nothing new to scan: its names were already in the inventory, or a scan of the domain is running and the next one reads them.'
        }`,
      });
      if (scanId) scansChanged();
      onUploaded();
    } catch (cause) {
      setError(failureMessage(cause, 'The zone file could not be uploaded.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <label
        htmlFor={inputId}
        className="inline-flex cursor-pointer items-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-xs font-medium text-slate-800 hover:bg-slate-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600"
      >
        {busy ? 'Uploading...' : 'Upload zone file'}
        <input
          id={inputId}
          type="file"
          accept=".zone,.txt,.db,text/plain"
          className="sr-only"
          disabled={busy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void upload(file);
          }}
        />
      </label>
      {error && (
        <p
          role="alert"
          data-testid="zone-file-error"
          className="mt-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
        >
          {error}
        </p>
      )}
    </div>
  );
}
