// @vitest-environment happy-dom
import { act, useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { JiraFields } from '../../../src/islands/dashboard/settings/JiraFields.tsx';
import type { JiraChoices } from '../../../src/model/integrations.ts';
import { reactRoot } from '../../helpers/react-root.ts';

const SITE: JiraChoices = {
  projects: [
    { key: 'OPS', name: 'Operations' },
    { key: 'WEB', name: 'Website' },
  ],
  issueTypes: [],
  transitions: [],
};
const OPS: JiraChoices = {
  ...SITE,
  issueTypes: [
    { id: '10001', name: 'Task' },
    { id: '10002', name: 'Bug' },
  ],
  transitions: [{ name: 'Done' }, { name: 'Closed' }],
};

const dom = reactRoot();
/** What the form asked the site for, in order (undefined: the projects). */
let asked: (string | undefined)[];

beforeEach(() => {
  asked = [];
});

/** The form as the panel holds it: the typed values, and the site's answer for what was asked. */
function Harness() {
  const [values, setValues] = useState<Record<string, string>>({});
  const [choices, setChoices] = useState<JiraChoices | null>(null);
  return (
    <form>
      <JiraFields
        idPrefix="jira"
        values={values}
        choices={choices}
        loading={false}
        disabled={false}
        onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))}
        onLoad={(projectKey) => {
          asked.push(projectKey);
          setChoices(projectKey === 'OPS' ? OPS : SITE);
          if (projectKey === 'OPS') setValues((v) => ({ ...v, issueType: 'Bug', doneTransition: 'Done' }));
        }}
      />
      <output data-testid="values">{JSON.stringify(values)}</output>
    </form>
  );
}

const byId = <T extends HTMLElement>(id: string) => dom.container.querySelector(`#${id}`) as T;
const options = (id: string) => [...byId<HTMLSelectElement>(id).options].map((o) => o.textContent);
const loadButton = () =>
  [...dom.container.querySelectorAll('button')].find((b) => /Load projects/.test(b.textContent ?? ''));

/** Types into an input or picks an option as a person does, so React sees the change. */
async function enter(element: HTMLInputElement | HTMLSelectElement, value: string) {
  const proto =
    element instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  await act(async () => {
    Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(element, value);
    element.dispatchEvent(
      new Event(element instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }),
    );
  });
}

describe('Settings → Integrations: Jira', () => {
  it('offers the project, issue type and done status as selects filled from the site, not free text', async () => {
    await act(async () => dom.root.render(<Harness />));
    // Only the site, e-mail and token are typed; the token is hidden.
    expect([...dom.container.querySelectorAll('input')].map((i) => `${i.id}:${i.type}`)).toEqual([
      'jira-siteUrl:text',
      'jira-email:text',
      'jira-apiToken:password',
    ]);
    for (const id of ['jira-projectKey', 'jira-issueType', 'jira-doneTransition'])
      expect(byId<HTMLSelectElement>(id).disabled, id).toBe(true);
    expect(options('jira-projectKey')).toEqual(['Load projects first']);
    expect(loadButton()?.disabled).toBe(true);

    await enter(byId('jira-siteUrl'), 'https://acme.atlassian.net');
    await enter(byId('jira-email'), 'ann@acme.com');
    expect(loadButton()?.disabled).toBe(true);
    await enter(byId('jira-apiToken'), 'ATATT-x');
    expect(loadButton()?.disabled).toBe(false);
    await act(async () => loadButton()?.click());
    expect(asked).toEqual([undefined]);

    expect(byId<HTMLSelectElement>('jira-projectKey').disabled).toBe(false);
    expect(options('jira-projectKey')).toEqual(['Choose a project', 'Operations (OPS)', 'Website (WEB)']);
    expect(byId<HTMLSelectElement>('jira-issueType').disabled).toBe(true);

    await enter(byId('jira-projectKey'), 'OPS');
    expect(asked).toEqual([undefined, 'OPS']);
    expect(options('jira-issueType')).toEqual(['Choose an issue type', 'Task', 'Bug']);
    expect(options('jira-doneTransition')).toEqual(['Choose the done status', 'Done', 'Closed']);
    expect(byId<HTMLSelectElement>('jira-issueType').value).toBe('Bug');

    await enter(byId('jira-doneTransition'), 'Closed');
    expect(JSON.parse(dom.container.querySelector('[data-testid="values"]')?.textContent ?? '{}')).toEqual({
      siteUrl: 'https://acme.atlassian.net',
      email: 'ann@acme.com',
      apiToken: 'ATATT-x',
      projectKey: 'OPS',
      issueType: 'Bug',
      doneTransition: 'Closed',
    });
  });

  it('says so when the project’s workflow has no done status', async () => {
    await act(async () =>
      dom.root.render(
        <JiraFields
          idPrefix="jira"
          values={{ projectKey: 'OPS' }}
          choices={{ ...OPS, transitions: [] }}
          loading={false}
          disabled={false}
          onChange={() => {}}
          onLoad={() => {}}
        />,
      ),
    );
    expect(options('jira-doneTransition')).toEqual(['This project’s workflow has no done status']);
  });
});
