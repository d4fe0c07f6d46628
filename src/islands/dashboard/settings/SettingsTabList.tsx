import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';

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

/** Which ends of the strip hide tabs past them: where its scroll cues show. */
export function hiddenEnds(strip: { scrollLeft: number; clientWidth: number; scrollWidth: number }) {
  // A pixel of rounding at either end is not a hidden tab.
  return {
    before: strip.scrollLeft > 1,
    after: strip.scrollLeft + strip.clientWidth < strip.scrollWidth - 1,
  };
}

/** How far one press of a scroll cue moves the strip: most of its width, a tab's worth kept in view. */
const CUE_STEP = 0.7;

const CUE =
  'absolute inset-y-0 flex w-9 items-center border-b border-slate-200 text-lg font-semibold text-slate-600';

/**
 * The WAI-ARIA tabs pattern: one tab in the Tab order (roving tabindex); arrow keys, Home and End move
 * between tabs and select them. On a narrow screen the strip scrolls sideways instead of the page,
 * and says so: a fade with an arrow at each end that hides tabs (a press scrolls that way; the
 * keys already reach every tab, so the cues are hidden from assistive technology and the Tab order).
 */
export function SettingsTabList<Id extends string>({ tabs, selected, onSelect }: SettingsTabListProps<Id>) {
  const refs = useRef(new Map<Id, HTMLButtonElement>());
  const strip = useRef<HTMLDivElement>(null);
  const moved = useRef(false);
  const [ends, setEnds] = useState({ before: false, after: false });

  const measure = useCallback(() => {
    if (!strip.current) return;
    const next = hiddenEnds(strip.current);
    setEnds((was) => (was.before === next.before && was.after === next.after ? was : next));
  }, []);

  useEffect(() => {
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [measure]);

  // The selected tab is scrolled into the strip's view, clear of the cues, and focused when a key chose it.
  useEffect(() => {
    const tab = refs.current.get(selected);
    tab?.scrollIntoView({ block: 'nearest', inline: 'center' });
    if (moved.current) tab?.focus();
    moved.current = false;
    measure();
  }, [selected, measure]);

  const scrollBy = (direction: 1 | -1) => {
    const box = strip.current;
    box?.scrollBy({ left: direction * box.clientWidth * CUE_STEP, behavior: 'smooth' });
  };

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
    <div className="relative mt-4" data-testid="settings-tab-strip">
      <div
        ref={strip}
        role="tablist"
        aria-label="Settings"
        onKeyDown={onKeyDown}
        onScroll={measure}
        className="flex gap-2 overflow-x-auto border-b border-slate-200"
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
      {ends.before && <ScrollCue side="before" onClick={() => scrollBy(-1)} />}
      {ends.after && <ScrollCue side="after" onClick={() => scrollBy(1)} />}
    </div>
  );
}

/**
 * The fade and arrow at an end of the strip that hides tabs: a cue for the eye and the pointer. The
 * tabs stay reachable by the arrow keys, so it is hidden from screen readers and the Tab order.
 */
function ScrollCue({ side, onClick }: { side: 'before' | 'after'; onClick: () => void }) {
  const before = side === 'before';
  return (
    <button
      type="button"
      aria-hidden="true"
      tabIndex={-1}
      data-testid={`tabs-scroll-${side}`}
      className={`${CUE} ${
        before
          ? 'left-0 justify-start bg-linear-to-r from-white via-white/90 to-transparent pl-1'
          : 'right-0 justify-end bg-linear-to-l from-white via-white/90 to-transparent pr-1'
      }`}
      onClick={onClick}
    >
      {before ? '‹' : '›'}
    </button>
  );
}
