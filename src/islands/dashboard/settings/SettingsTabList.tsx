import { type KeyboardEvent, useEffect, useRef } from 'react';

export interface SettingsTabItem<Id extends string> {
  id: Id;
  label: string;
}

interface SettingsTabListProps<Id extends string> {
  tabs: SettingsTabItem<Id>[];
  selected: Id;
  onSelect: (id: Id) => void;
}

/** The ids that tie a tab and its panel together, for `aria-controls` and `aria-labelledby`. */
export const tabId = (id: string) => `settings-tab-${id}`;
export const panelId = (id: string) => `settings-panel-${id}`;

/**
 * The WAI-ARIA tabs pattern: one tab in the Tab order (roving tabindex); arrow keys, Home and End move
 * between tabs and select them. On a narrow screen the strip scrolls sideways instead of the page.
 */
export function SettingsTabList<Id extends string>({ tabs, selected, onSelect }: SettingsTabListProps<Id>) {
  const refs = useRef(new Map<Id, HTMLButtonElement>());
  const moved = useRef(false);

  // The selected tab is scrolled into the strip's view, and focused when a key chose it.
  useEffect(() => {
    const tab = refs.current.get(selected);
    tab?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    if (moved.current) tab?.focus();
    moved.current = false;
  }, [selected]);

  const onKeyDown = (event: KeyboardEvent) => {
    const at = tabs.findIndex((t) => t.id === selected);
    const to: Record<string, number> = {
      ArrowRight: (at + 1) % tabs.length,
      ArrowLeft: (at - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    };
    const next = to[event.key];
    if (next === undefined) return;
    event.preventDefault();
    moved.current = true;
    onSelect(tabs[next].id);
  };

  return (
    <div
      role="tablist"
      aria-label="Settings"
      onKeyDown={onKeyDown}
      className="mt-4 flex gap-2 overflow-x-auto border-b border-slate-200"
    >
      {tabs.map((t) => (
        <button
          key={t.id}
          ref={(node) => {
            if (node) refs.current.set(t.id, node);
            else refs.current.delete(t.id);
          }}
          id={tabId(t.id)}
          type="button"
          role="tab"
          aria-selected={selected === t.id}
          aria-controls={panelId(t.id)}
          tabIndex={selected === t.id ? 0 : -1}
          className="shrink-0 border-b-2 border-transparent px-3 py-2 text-sm font-medium whitespace-nowrap text-slate-600 aria-selected:border-brand-600 aria-selected:text-brand-700"
          onClick={() => onSelect(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
