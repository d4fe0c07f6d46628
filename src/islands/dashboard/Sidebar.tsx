import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import type { Provider } from '../../lib/auth/messages.ts';
import { Avatar } from '../auth/Avatar.tsx';
import { WorkspaceSwitcher } from './workspaces/WorkspaceSwitcher.tsx';

export type Section = 'scans' | 'domains' | 'settings';

export const SECTIONS: { id: Section; label: string }[] = [
  { id: 'scans', label: 'Scans' },
  { id: 'domains', label: 'Domains' },
  { id: 'settings', label: 'Settings' },
];

interface SidebarProps {
  section: Section;
  onGo: (section: Section) => void;
  onSignOut: () => void;
  name: string | null | undefined;
  email: string | null | undefined;
  photoURL: string | null | undefined;
  provider: Provider;
}

const MENU_ID = 'dashboard-sidebar';

/**
 * The user, the workspace, the sections and Sign Out. From `md` up it is a column beside the
 * screen; on a phone it waits behind a 'Dashboard menu' button, so each screen's heading comes first.
 */
export function Sidebar({ section, onGo, onSignOut, name, email, photoURL, provider }: SidebarProps) {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const current = useRef<HTMLButtonElement>(null);

  // Opened from the button, the menu takes the focus on the section the user is in.
  useEffect(() => {
    if (open) current.current?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (open && event.key === 'Escape') {
      event.stopPropagation();
      close();
    }
  };

  const go = (next: Section) => {
    setOpen(false);
    onGo(next);
  };

  return (
    <div className="border-b border-slate-200 bg-slate-50 md:flex md:w-64 md:shrink-0 md:flex-col md:border-r md:border-b-0">
      <div className="px-4 py-2 md:hidden">
        <button
          ref={toggle}
          type="button"
          aria-expanded={open}
          aria-controls={MENU_ID}
          className="flex items-center gap-2 rounded-md px-2 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-brand-600"
          onClick={() => setOpen((was) => !was)}
        >
          <svg
            viewBox="0 0 24 24"
            width="20"
            height="20"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            aria-hidden="true"
          >
            <path d={open ? 'M6 6l12 12M18 6L6 18' : 'M4 7h16M4 12h16M4 17h16'} />
          </svg>
          Dashboard menu
        </button>
      </div>
      <aside
        id={MENU_ID}
        aria-label="Account and sections"
        onKeyDown={onKeyDown}
        className={`${open ? 'flex' : 'hidden'} flex-col p-4 md:flex md:flex-1`}
      >
        <a href="/" className="hidden items-center gap-2 text-lg font-bold text-ink md:flex">
          <img src="/favicon.svg" alt="" width="24" height="24" />
          DangleWatch
        </a>
        <div className="flex items-center gap-3 md:mt-6" data-testid="sidebar-user">
          <Avatar photoURL={photoURL} displayName={name} email={email} size="md" />
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold text-ink">{name || 'Unnamed user'}</p>
            {email && <p className="truncate text-xs text-slate-600">{email}</p>}
            <p className="text-xs text-slate-500">{provider === 'google' ? 'Google' : 'GitHub'} account</p>
          </div>
        </div>
        <WorkspaceSwitcher />
        <nav aria-label="Dashboard" className="mt-6 flex gap-1 md:flex-col">
          {SECTIONS.map((s) => (
            <button
              key={s.id}
              ref={section === s.id ? current : undefined}
              type="button"
              aria-current={section === s.id ? 'page' : undefined}
              className="rounded-md px-3 py-2 text-left text-sm font-medium text-slate-700 hover:bg-slate-200 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white"
              onClick={() => go(s.id)}
            >
              {s.label}
            </button>
          ))}
        </nav>
        <button
          type="button"
          className="mt-6 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 md:mt-auto"
          onClick={onSignOut}
        >
          Sign Out
        </button>
      </aside>
    </div>
  );
}
