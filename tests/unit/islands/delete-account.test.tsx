import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { OwnedTeamsNotice } from '../../../src/islands/dashboard/settings/DeleteAccountDialog.tsx';

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('Delete your account?', () => {
  it('regression: names each team workspace the account owns and what happens to it', () => {
    const words = text(
      renderToStaticMarkup(
        <OwnedTeamsNotice
          teams={[
            { name: 'Side project', memberCount: 1, owners: 1 },
            { name: 'Acme', memberCount: 4, owners: 2 },
            { name: 'Beta', memberCount: 2, owners: 1 },
          ]}
        />,
      ),
    );
    expect(words).toContain('Team workspaces you own');
    expect(words).toContain('“Side project” is deleted with your account');
    expect(words).toContain('“Acme” stays with its 3 other members');
    expect(words).toContain('“Beta”: you are its only owner');
  });

  it('says nothing without team workspaces', () => {
    expect(renderToStaticMarkup(<OwnedTeamsNotice teams={[]} />)).toBe('');
  });
});
