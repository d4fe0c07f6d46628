import { useId } from 'react';
import { capitalise } from '../../../lib/dashboard/format.ts';
import { configSummary } from '../../../lib/dashboard/scan-options.ts';
import { SCAN_FREQUENCIES, type ScanConfig, type ScanFrequency } from '../../../model/contract.ts';
import { ScanOptionToggles } from '../shared/ScanOptionToggles.tsx';

interface AddDomainConfigStepProps {
  domain: string;
  config: ScanConfig;
  onChange: (config: ScanConfig) => void;
  error: string | null;
}

/** Step 2: the scan options, the frequency and a one-line summary. */
export function AddDomainConfigStep({ domain, config, onChange, error }: AddDomainConfigStepProps) {
  const frequencyId = useId();
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        How DangleWatch scans <span className="font-mono font-semibold">{domain}</span>:
      </p>
      <ScanOptionToggles
        value={config}
        onChange={(options) => onChange({ ...options, scanFrequency: config.scanFrequency })}
      />
      <div>
        <label htmlFor={frequencyId} className="text-sm font-medium text-ink">
          Scan Frequency
        </label>
        <select
          id={frequencyId}
          value={config.scanFrequency}
          onChange={(event) => onChange({ ...config, scanFrequency: event.target.value as ScanFrequency })}
          className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
        >
          {SCAN_FREQUENCIES.map((frequency) => (
            <option key={frequency} value={frequency}>
              {capitalise(frequency)}
            </option>
          ))}
        </select>
      </div>
      <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-700" data-testid="config-summary">
        {configSummary(config)}
      </p>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
