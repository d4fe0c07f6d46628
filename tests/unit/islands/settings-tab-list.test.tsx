import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { panelId, SettingsTabList, tabId } from '../../../src/islands/dashboard/settings/SettingsTabList.tsx';

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
});
