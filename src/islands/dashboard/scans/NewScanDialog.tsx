import { useStore } from '@nanostores/react';
import { useEffect, useId, useState } from 'react';
import { startScan } from '../../../lib/dashboard/actions.ts';
import { startOptions } from '../../../lib/dashboard/scan-options.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { $domains, loadDomains } from '../../../lib/dashboard/store.ts';
import { BUTTON } from '../shared/buttons.ts';
import { Dialog } from '../shared/Dialog.tsx';
import { ScanOptionToggles, type ScanOptionValues } from '../shared/ScanOptionToggles.tsx';
import { Spinner } from '../shared/Spinner.tsx';

interface NewScanDialogProps {
  onClose: () => void;
  /** Opens the domains screen, where a domain is added and verified. */
  onGoToDomains: () => void;
}

/** 'New Scan': one of the user's verified domains, with its options, scanned now. */
export function NewScanDialog({ onClose, onGoToDomains }: NewScanDialogProps) {
  const { domains, loading, loadedAt } = useStore($domains);
  const verified = domains.filter((d) => d.status === 'verified');
  const [chosen, setChosen] = useState<string | null>(null);
  const [options, setOptions] = useState<ScanOptionValues | null>(null);
  const [starting, setStarting] = useState(false);
  const groupId = useId();

  useEffect(() => {
    if (loadedAt === null) void loadDomains(dashboardApi().domains);
  }, [loadedAt]);

  const selected = verified.find((d) => d.id === chosen) ?? verified[0];
  const values = options ?? (selected ? selected.scanConfig : null);

  const choose = (id: string) => {
    setChosen(id);
    setOptions(null);
  };
  const start = async () => {
    if (!selected || !values) return;
    setStarting(true);
    const outcome = await startScan(selected.domain, startOptions(values));
    setStarting(false);
    if (outcome.started) onClose();
  };

  return (
    <Dialog
      title="New Scan"
      description="Scan one of your verified domains for dangling subdomains now."
      onClose={onClose}
      footer={
        <>
          <button type="button" className={BUTTON.secondary} onClick={onClose}>
            Cancel
          </button>
          {verified.length > 0 && (
            <button type="button" className={BUTTON.primary} onClick={start} disabled={starting || !selected}>
              {starting ? 'Starting...' : 'Start Scan'}
            </button>
          )}
        </>
      }
    >
      {loading && loadedAt === null ? (
        <Spinner label="Loading domains" />
      ) : verified.length === 0 ? (
        <div className="text-sm text-slate-700">
          <p>
            Only a domain you have proven you own can be scanned, and you have no verified domain yet. Add one
            and publish its DNS TXT record on the Domains screen.
          </p>
          <button
            type="button"
            className={`${BUTTON.secondary} mt-3`}
            onClick={() => {
              onClose();
              onGoToDomains();
            }}
          >
            Go to Domains
          </button>
        </div>
      ) : (
        <div className="space-y-5">
          <fieldset>
            <legend id={groupId} className="text-sm font-semibold text-ink">
              Domain
            </legend>
            <div className="mt-2 space-y-2">
              {verified.map((d) => (
                <label key={d.id} className="flex items-center gap-2 text-sm text-ink">
                  <input
                    type="radio"
                    name="new-scan-domain"
                    value={d.id}
                    checked={selected?.id === d.id}
                    onChange={() => choose(d.id)}
                    className="accent-brand-600"
                  />
                  <span className="font-mono">{d.domain}</span>
                </label>
              ))}
            </div>
          </fieldset>
          {values && (
            <fieldset>
              <legend className="text-sm font-semibold text-ink">Options</legend>
              <div className="mt-2">
                <ScanOptionToggles value={values} onChange={setOptions} />
              </div>
            </fieldset>
          )}
        </div>
      )}
    </Dialog>
  );
}
