import type { ScanConfig } from '../../../model/contract.ts';
import { Toggle } from './Toggle.tsx';

export type ScanOptionValues = Omit<ScanConfig, 'scanFrequency'>;

interface ScanOptionTogglesProps {
  value: ScanOptionValues;
  onChange: (value: ScanOptionValues) => void;
}

/** The three scan options: Certificate Transparency, Skip Discovery, Multi-Stage Validation. */
export function ScanOptionToggles({ value, onChange }: ScanOptionTogglesProps) {
  return (
    <div className="space-y-3">
      <Toggle
        label="Certificate Transparency"
        hint="Find subdomains in public certificate logs, including ones no wordlist guesses."
        checked={value.useCertificateTransparency}
        onChange={(checked) => onChange({ ...value, useCertificateTransparency: checked })}
      />
      <Toggle
        label="Skip Discovery"
        hint="Check only the domain itself and names already known (a direct, faster scan)."
        checked={value.skipDiscovery}
        onChange={(checked) => onChange({ ...value, skipDiscovery: checked })}
      />
      <Toggle
        label="Multi-Stage Validation"
        hint="Check every finding a second time through another resolver, to filter false positives."
        checked={value.useMultiStageValidation}
        onChange={(checked) => onChange({ ...value, useMultiStageValidation: checked })}
      />
    </div>
  );
}
