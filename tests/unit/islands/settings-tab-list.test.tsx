import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  hiddenEnds,
  panelId,
  SettingsTabList,
  tabId,
} from '../../../src/islands/dashboard/settings/SettingsTabList.tsx';

const TABS = [
  { id: 'profile', label: 'Profile' },
  { id: 'members', label: 'Members' },
  { id: 'data', label: 'Data' },
] as const;

const tabs = (selected: (typeof TABS)[number]['id']) =>
  [
    ...renderToStaticMarkup(
      <SettingsTabList tabs={[...TABS]} selected={selected} onSelect={() => {}} />,
    ).matchAll(/<button[^>]*>/g),
  ].map(([tag]) => tag);

describe('the settings tab strip', () => {
  it('puts only the selected tab in the Tab order', () => {
    const [profile, members, data] = tabs('members');
    expect(members).toContain('tabindex="0"');
    expect(members).toContain('aria-selected="true"');
    for (const other of [profile, data]) {
      expect(other).toContain('tabindex="-1"');
      expect(other).toContain('aria-selected="false"');
    }
  });

  it('ties each tab to its panel by id', () => {
    const [profile] = tabs('profile');
    expect(profile).toContain(`id="${tabId('profile')}"`);
    expect(profile).toContain(`aria-controls="${panelId('profile')}"`);
    expect(panelId('profile')).not.toBe(tabId('profile'));
  });

  it('shows a scroll cue at each end that hides tabs, and none where every tab shows', () => {
    const strip = (scrollLeft: number, clientWidth: number, scrollWidth: number) =>
      hiddenEnds({ scrollLeft, clientWidth, scrollWidth });
    // A phone: ten tabs in 900 px behind 350 px of strip.
    expect(strip(0, 350, 900)).toEqual({ before: false, after: true });
    expect(strip(300, 350, 900)).toEqual({ before: true, after: true });
    expect(strip(550, 350, 900)).toEqual({ before: true, after: false });
    // A desktop: the strip holds them all (a rounding pixel hides nothing).
    expect(strip(0, 1200, 900)).toEqual({ before: false, after: false });
    expect(strip(0.5, 899.5, 900.5)).toEqual({ before: false, after: false });
  });

  it('keeps the cues out of the tablist, the Tab order and assistive technology', () => {
    const html = renderToStaticMarkup(
      <SettingsTabList tabs={[...TABS]} selected="profile" onSelect={() => {}} />,
    );
    const list = /<div[^>]*role="tablist"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
    expect([...list.matchAll(/role="tab"/g)]).toHaveLength(TABS.length);
    // Nothing is known of the strip's width before it is drawn: no cue until it is measured.
    expect(html).not.toContain('tabs-scroll-');
  });
});
