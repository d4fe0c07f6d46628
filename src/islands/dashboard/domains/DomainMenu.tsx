import { useEffect, useId, useRef, useState } from 'react';
import { useCan } from '../shared/use-can.ts';

interface DomainMenuProps {
  domain: string;
  canRescan: boolean;
  onForceRescan: () => void;
  onSettings: () => void;
  onRemove: () => void;
}

const ITEM = 'block w-full px-3 py-2 text-left text-sm text-slate-800 hover:bg-slate-100 disabled:opacity-50';

/** The verified card's menu: Visit Domain (new tab), Force Rescan, Scan Settings, Remove Domain. */
export function DomainMenu({ domain, canRescan, onForceRescan, onSettings, onRemove }: DomainMenuProps) {
  const [open, setOpen] = useState(false);
  const mayScan = useCan('scans.start');
  const mayWrite = useCan('domains.write');
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    // Menu keys: Escape closes and returns to the button; arrows move between the items.
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
        return;
      }
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      const items = [
        ...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not(:disabled)') ?? []),
      ];
      if (items.length === 0) return;
      event.preventDefault();
      const at = items.indexOf(document.activeElement as HTMLElement);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(at + step + items.length) % items.length]?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  // The item goes with the menu: the focus moves to the menu's button first, so a dialog the item
  // opens gives it back there when it closes (Dialog.tsx), not to the page's body.
  const act = (action: () => void) => () => {
    button.current?.focus();
    setOpen(false);
    action();
  };

  return (
    <div ref={root} className="relative">
      <button
        ref={button}
        type="button"
        aria-label={`Actions for ${domain}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
        className="rounded-md border border-slate-300 px-2 py-1.5 text-slate-700 hover:bg-slate-100"
      >
        <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" fill="currentColor">
          <circle cx="4" cy="10" r="1.6" />
          <circle cx="10" cy="10" r="1.6" />
          <circle cx="16" cy="10" r="1.6" />
        </svg>
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label={`Actions for ${domain}`}
          className="absolute right-0 z-10 mt-1 w-48 overflow-hidden rounded-md border border-slate-200 bg-white py-1 shadow-lg"
        >
          <a
            role="menuitem"
            href={`https://${domain}`}
            target="_blank"
            rel="noopener noreferrer"
            className={ITEM}
            onClick={() => setOpen(false)}
          >
            Visit Domain
          </a>
          {mayScan && (
            <button
              type="button"
              role="menuitem"
              className={ITEM}
              onClick={act(onForceRescan)}
              disabled={!canRescan}
            >
              Force Rescan
            </button>
          )}
          {mayWrite && (
            <>
              <button type="button" role="menuitem" className={ITEM} onClick={act(onSettings)}>
                Scan Settings
              </button>
              <button
                type="button"
                role="menuitem"
                className={`${ITEM} text-red-700`}
                onClick={act(onRemove)}
              >
                Remove Domain
              </button>
            </>
          )}
        </div>
      )}
    </div>
  );
}
