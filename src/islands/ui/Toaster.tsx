import { useStore } from '@nanostores/react';
import { $toasts, dismissToast, type Toast } from '../../lib/toast.ts';
import { CloseIcon } from './CloseIcon.tsx';

function ToastCard({ toast }: { toast: Toast }) {
  const destructive = toast.variant === 'destructive';
  return (
    <div
      className={`pointer-events-auto flex w-full items-start gap-3 rounded-lg border p-4 shadow-lg ${
        destructive ? 'border-red-300 bg-red-50 text-red-900' : 'border-slate-200 bg-white text-ink'
      }`}
      data-variant={toast.variant}
    >
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{toast.title}</p>
        {toast.description && (
          <p className={`mt-1 text-sm ${destructive ? 'text-red-800' : 'text-slate-700'}`}>
            {toast.description}
          </p>
        )}
      </div>
      <button
        type="button"
        onClick={() => dismissToast(toast.id)}
        className="rounded p-1 text-slate-600 hover:bg-slate-100 hover:text-ink focus-visible:outline-2 focus-visible:outline-brand-600"
        aria-label="Dismiss notification"
      >
        <CloseIcon size={16} />
      </button>
    </div>
  );
}

/**
 * Shows the toast of the shared toast store (at most one). Rendered inside the island whose
 * actions raise toasts (the mailing sign-up, the dashboard), not as an island of its own: one
 * island fewer to hydrate on the public pages.
 */
export function Toaster() {
  const toasts = useStore($toasts).filter((t) => t.open);
  // The live region is always in the page, so that screen readers announce a toast when it appears.
  return (
    <section
      aria-label="Notifications"
      className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex justify-center p-4 sm:inset-x-auto sm:right-0 sm:w-96"
    >
      <div role="status" aria-live="polite" aria-atomic="true" className="w-full">
        {toasts.map((t) => (
          <ToastCard key={t.id} toast={t} />
        ))}
      </div>
    </section>
  );
}
