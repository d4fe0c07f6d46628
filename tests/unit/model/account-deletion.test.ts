import { describe, expect, it } from 'vitest';
import { teamFate, teamFateMessage } from '../../../src/model/account-deletion.ts';

describe('what deleting the account does to a team workspace it owns', () => {
  it('alone in it: deleted with the account', () => {
    const team = { name: 'Side project', memberCount: 1, owners: 1 };
    expect(teamFate(team)).toBe('deleted');
    expect(teamFateMessage(team)).toBe(
      '“Side project” is deleted with your account, with its domains, scans and findings.',
    );
  });

  it('with another owner: it stays, and the account leaves it', () => {
    const team = { name: 'Acme', memberCount: 3, owners: 2 };
    expect(teamFate(team)).toBe('stays');
    expect(teamFateMessage(team)).toBe(
      '“Acme” stays with its 2 other members, owned by 1 other owner; you leave it.',
    );
  });

  it('its only owner while others work in it: handed over first, as the server requires', () => {
    const team = { name: 'Acme', memberCount: 2, owners: 1 };
    expect(teamFate(team)).toBe('hand-over');
    expect(teamFateMessage(team)).toBe(
      '“Acme”: you are its only owner and 1 other member works in it. Make another member owner, or delete the workspace (Settings → Members), before deleting your account.',
    );
  });
});
