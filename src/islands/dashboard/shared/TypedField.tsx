import { useId } from 'react';

interface TypedFieldProps {
  label: string;
  type?: 'email' | 'text';
  value: string;
  onChange: (value: string) => void;
}

/** A labelled input the user types a confirmation into: an e-mail address, a name, a word. */
export function TypedField({ label, type = 'text', value, onChange }: TypedFieldProps) {
  const id = useId();
  return (
    <label htmlFor={id} className="block">
      <span className="block font-medium [overflow-wrap:anywhere] text-ink">{label}</span>
      <input
        id={id}
        type={type}
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
      />
    </label>
  );
}
