import { useState } from 'react';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { upsertDomain } from '../../../lib/dashboard/store.ts';
import { toast } from '../../../lib/toast.ts';
import type { AlertSettings, DomainView, ScanConfig } from '../../../model/contract.ts';
import { BUTTON } from '../shared/buttons.ts';
import { Dialog } from '../shared/Dialog.tsx';
import { AddDomainConfigStep } from './AddDomainConfigStep.tsx';
import { AlertSettingsFields } from './AlertSettingsFields.tsx';

interface ScanSettingsDialogProps {
  domain: DomainView;
  onClose: () => void;
}

/**
 * Changes a domain's scan options and frequency, and its alerts (PATCH /api/domains/{id}); the
 * next scan date follows.
 */
export function ScanSettingsDialog({ domain, onClose }: ScanSettingsDialogProps) {
  const [config, setConfig] = useState<ScanConfig>(domain.scanConfig);
  const [alerts, setAlerts] = useState<AlertSettings>(domain.alerts);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      const answer = await dashboardApi().domains.update(domain.id, { scanConfig: config, alerts });
      upsertDomain(answer.domain);
      toast({
        title: 'Scan Settings Saved',
        description: `${domain.domain} is scanned with the new settings.`,
      });
      onClose();
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : 'The settings could not be saved.');
      setSaving(false);
    }
  };
  return (
    <Dialog
      title="Scan Settings"
      onClose={onClose}
      footer={
        <>
          <button type="button" className={BUTTON.secondary} onClick={onClose}>
            Cancel
          </button>
          <button type="button" className={BUTTON.primary} onClick={save} disabled={saving}>
            {saving ? 'Saving...' : 'Save'}
          </button>
        </>
      }
    >
      <AddDomainConfigStep domain={domain.domain} config={config} onChange={setConfig} error={error} />
      <AlertSettingsFields alerts={alerts} onChange={setAlerts} />
    </Dialog>
  );
}
