import { useId } from 'react';
import { checkDomainFormat, cleanDomainInput } from '../../../model/domain-input.ts';
import { BUTTON } from '../shared/buttons.ts';

interface AddDomainInputStepProps {
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  suggestion: string | null;
  /** The free tier's e-mail domain rule, in words; null on paid plans. */
  freeTierNotice: string | null;
  onSubmit: () => void;
}

/** Step 1: the domain, with the suggestion from the e-mail domain and the free-tier notice. */
export function AddDomainInputStep({
  value,
  onChange,
  error,
  suggestion,
  freeTierNotice,
  onSubmit,
}: AddDomainInputStepProps) {
  const inputId = useId();
  const errorId = useId();
  const hostId = useId();
  // A pasted URL is not refused: its host name is what will be added, said under the field.
  const host = checkDomainFormat(cleanDomainInput(value));
  const cleaned = host.ok && host.domain !== value.trim().toLowerCase() ? host.domain : null;
  return (
    <form
      id="add-domain-input"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      className="space-y-4"
    >
      {suggestion && value.trim().toLowerCase() !== suggestion && (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-brand-100 bg-brand-50 p-3 text-sm">
          <span>
            Suggested from your e-mail: <span className="font-mono font-semibold">{suggestion}</span>
          </span>
          <button type="button" className={BUTTON.small} onClick={() => onChange(suggestion)}>
            Use This
          </button>
        </div>
      )}
      <div>
        <label htmlFor={inputId} className="text-sm font-medium text-ink">
          Domain
        </label>
        <input
          id={inputId}
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          placeholder="example.com"
          aria-invalid={error !== null}
          aria-describedby={
            [error ? errorId : null, cleaned ? hostId : null].filter(Boolean).join(' ') || undefined
          }
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm aria-invalid:border-red-500"
        />
        {cleaned && (
          <p id={hostId} className="mt-1 text-sm text-slate-700" data-testid="cleaned-domain">
            Adds the domain <span className="font-mono font-semibold">{cleaned}</span>
          </p>
        )}
        {error && (
          <p id={errorId} role="alert" className="mt-1 text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
      {freeTierNotice && (
        <p className="rounded-md bg-slate-50 p-3 text-xs text-slate-700">{freeTierNotice}</p>
      )}
    </form>
  );
}
