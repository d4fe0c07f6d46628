import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AddDomainInputStep } from '../../../src/islands/dashboard/domains/AddDomainInputStep.tsx';

const noop = () => {};
const step = (value: string) =>
  renderToStaticMarkup(
    <AddDomainInputStep
      value={value}
      onChange={noop}
      error={null}
      suggestion={null}
      freeTierNotice={null}
      onSubmit={noop}
    />,
  );

describe('the add-domain field', () => {
  it('regression: a pasted URL shows the host name it will add, tied to the field', () => {
    const html = step('https://acme-widgets.com/login');
    expect(html.replace(/<[^>]+>/g, '')).toContain('Adds the domain acme-widgets.com');
    const hostId = /<p id="([^"]+)"[^>]*data-testid="cleaned-domain"/.exec(html)?.[1];
    expect(hostId).toBeDefined();
    expect(html).toMatch(new RegExp(`<input[^>]*aria-describedby="${hostId}"`));
  });

  it('says nothing more for a plain name, nor for what is no domain at all', () => {
    for (const value of ['acme-widgets.com', 'Acme-Widgets.com ', 'not a domain', ''])
      expect(step(value), value).not.toContain('cleaned-domain');
  });
});
