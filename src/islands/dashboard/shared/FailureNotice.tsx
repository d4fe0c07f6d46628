import type { ReactNode } from 'react';

interface Props {
  /** What failed, in a plain sentence (with its heading, where it has one). */
  children: ReactNode;
  /** The provider's own words, under the sentence: what its support or its docs will recognise. */
  detail?: string | null;
  testId?: string;
  className?: string;
}

/** A failure a person reads: the sentence first, the provider's own words as a smaller line below. */
export function FailureNotice({ children, detail, testId, className = '' }: Props) {
  return (
    <div
      role="alert"
      className={`rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 ${className}`}
      data-testid={testId}
    >
      <p>{children}</p>
      {detail && (
        <p className="mt-1 break-words font-mono text-xs text-red-900" data-testid="provider-words">
          The provider said: {detail}
        </p>
      )}
    </div>
  );
}
