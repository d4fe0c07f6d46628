import { useState } from 'react';
import { failureMessage, monitorZone } from '../../../lib/dashboard/dns-actions.ts';
import type { ConnectionView, DomainView } from '../../../model/contract.ts';
import { BUTTON } from '../shared/buttons.ts';

interface ZonePickerProps {
  connection: ConnectionView;
  /** Offline or the service is down: monitoring waits. */
  disabled: boolean;
  onMonitored: (zone: string, domain: DomainView) => void;
}

/** The zones a connection reads; each one not yet monitored can be linked to its domain. */
export function ZonePicker({ connection, disabled, onMonitored }: ZonePickerProps) {
  const [busyZone, setBusyZone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (connection.zones.length === 0) {
    return <p className="text-slate-700">This credential reads no zones yet.</p>;
  }
  const monitor = async (zone: string) => {
    setBusyZone(zone);
    setError(null);
    try {
      onMonitored(zone, await monitorZone(connection.id, zone));
    } catch (cause) {
      setError(failureMessage(cause, `${zone} could not be monitored.`));
    } finally {
      setBusyZone(null);
    }
  };
  return (
    <div>
      <ul className="divide-y divide-slate-100" aria-label={`Zones of ${connection.label}`}>
        {connection.zones.map(({ zone, domainId }) => (
          <li key={zone} className="flex items-center justify-between gap-3 py-2" data-testid="dns-zone">
            <span className="font-mono break-all text-ink">{zone}</span>
            {domainId ? (
              <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800">
                Monitored
              </span>
            ) : (
              <button
                type="button"
                className={BUTTON.small}
                aria-label={`Monitor ${zone}`}
                disabled={disabled || busyZone !== null}
                onClick={() => void monitor(zone)}
              >
                {busyZone === zone ? 'Monitoring...' : 'Monitor'}
              </button>
            )}
          </li>
        ))}
      </ul>
      {error && (
        <p role="alert" className="mt-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}
