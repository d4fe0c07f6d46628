import { type ReactNode, useEffect, useId, useRef } from 'react';
import { CloseIcon } from '../../ui/CloseIcon.tsx';

interface DialogProps {
  title: string;
  /** A line under the title; it also describes the dialog to screen readers. */
  description?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** The buttons at the bottom. */
  footer?: ReactNode;
  wide?: boolean;
  /** Extra content beside the title (a badge). */
  aside?: ReactNode;
}

/**
 * A modal dialog on the native <dialog> element: the browser traps focus and puts it above the
 * page; Escape closes it through `onClose`, so the caller's state stays the one truth, and closes
 * only the top dialog when one opened another. Closed, it gives the focus back to what opened it.
 */
export function Dialog({ title, description, onClose, children, footer, wide = false, aside }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const shownTitle = useRef(title);
  const titleId = useId();
  const descriptionId = useId();

  // The caller closes a dialog by unmounting it, which leaves the focus on the page's body and the
  // next Tab in the site header: the control that opened it gets the focus back.
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || dialog.open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
    return () => {
      if (dialog.open && typeof dialog.close === 'function') dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  // A dialog that moves on to its next step (a new title) has removed or relabelled the button that
  // had the focus: the new title takes it, so the focus stays in the dialog and the step is announced.
  useEffect(() => {
    if (shownTitle.current === title) return;
    shownTitle.current = title;
    const h = heading.current;
    if (!h) return;
    // Focusable only from now: at opening the browser gives the focus to the first control, not the title.
    h.tabIndex = -1;
    h.focus();
  }, [title]);

  return (
    <dialog
      ref={ref}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        // React passes a nested dialog's cancel on to the dialogs around it in the component tree,
        // though the browser sent it to the top one only: each closes on its own Escape.
        if (event.target !== event.currentTarget) return;
        event.preventDefault();
        onClose();
      }}
      className={`fixed m-auto max-h-[90vh] w-[calc(100%-2rem)] overflow-y-auto rounded-xl border border-slate-200 bg-white p-0 text-ink shadow-xl backdrop:bg-slate-900/50 ${
        wide ? 'max-w-3xl' : 'max-w-lg'
      }`}
    >
      <div className="flex items-start justify-between gap-4 border-b border-slate-200 py-4 pr-12 pl-6">
        <div className="min-w-0">
          <h2 ref={heading} id={titleId} className="text-lg font-semibold text-ink outline-none">
            {title}
          </h2>
          {description && (
            <p id={descriptionId} className="mt-1 text-sm text-slate-600">
              {description}
            </p>
          )}
        </div>
        {aside && <div className="flex shrink-0 items-center gap-2">{aside}</div>}
      </div>
      <div className="px-6 py-4">{children}</div>
      {footer && (
        <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 px-6 py-4">{footer}</div>
      )}
      {/* Last in the DOM: the browser focuses the dialog's first control, which should be its content. */}
      <button
        type="button"
        onClick={onClose}
        aria-label="Close"
        className="absolute top-4 right-4 rounded p-1 text-slate-600 hover:bg-slate-100 hover:text-ink"
      >
        <CloseIcon size={18} />
      </button>
    </dialog>
  );
}
