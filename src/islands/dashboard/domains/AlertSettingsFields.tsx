import { useId } from 'react';
import type { AlertSettings } from '../../../model/contract.ts';
import { Toggle } from '../shared/Toggle.tsx';

const LEAST_STATUS: { value: AlertSettings['minStatus']; label: string }[] = [
  { value: 'review', label: 'Every change, including findings to review' },
  { value: 'likely', label: 'Likely and claimable findings' },
  { value: 'claimable', label: 'Only claimable findings' },
];

interface AlertSettingsFieldsProps {
  alerts: AlertSettings;
  onChange: (alerts: AlertSettings) => void;
}

/** A domain's alerts: e-mail on or off, and the least certain finding that alerts. */
export function AlertSettingsFields({ alerts, onChange }: AlertSettingsFieldsProps) {
  const selectId = useId();
  return (
    <fieldset className="mt-6 space-y-3 border-t border-slate-200 pt-4">
      <legend className="text-sm font-semibold text-ink">Alerts</legend>
      <Toggle
        label="E-mail alerts"
        hint="One e-mail when a scan finds something new, worse or fixed; nothing when nothing changed."
        checked={alerts.email}
        onChange={(email) => onChange({ ...alerts, email })}
      />
      <Toggle
        label="Webhook alerts"
        hint="The same changes, signed, to every webhook in Settings."
        checked={alerts.webhooks}
        onChange={(webhooks) => onChange({ ...alerts, webhooks })}
      />
      <label htmlFor={selectId} className="block text-sm">
        <span className="font-medium text-ink">Alert on</span>
        <select
          id={selectId}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
          value={alerts.minStatus}
          onChange={(event) =>
            onChange({ ...alerts, minStatus: event.target.value as AlertSettings['minStatus'] })
          }
        >
          {LEAST_STATUS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}
