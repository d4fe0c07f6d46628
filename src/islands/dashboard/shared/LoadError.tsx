import { BUTTON } from './buttons.ts';

/** 'Failed to load dashboard data', with a way to ask again. */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="mt-4 flex flex-wrap items-center justify-between gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800"
    >
      <span>{message}</span>
      <button type="button" className={BUTTON.small} onClick={onRetry}>
        Try Again
      </button>
    </div>
  );
}
