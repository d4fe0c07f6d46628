import type { JiraChoices } from '../../../model/integrations.ts';
import { BUTTON } from '../shared/buttons.ts';

const INPUT = 'mt-1 w-full rounded-md border border-slate-300 px-3 py-2';
const SELECT = 'mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2';

/** The fields that must be typed before the site can be asked for its projects. */
export const JIRA_SIGN_IN_FIELDS = ['siteUrl', 'email', 'apiToken'] as const;

/**
 * Jira's part of the connect form: the site, e-mail and API token are typed; the project, issue type
 * and transition when fixed are chosen from what the site answers (typed names would be refused at
 * connect, or worse, fail at the first fix). "Load projects" asks the site; choosing a project asks
 * for its issue types and done statuses.
 */
export function JiraFields({
  idPrefix,
  values,
  choices,
  loading,
  disabled,
  onChange,
  onLoad,
}: {
  idPrefix: string;
  values: Record<string, string>;
  /** What the site answered; null until "Load projects". */
  choices: JiraChoices | null;
  loading: boolean;
  disabled: boolean;
  onChange: (name: string, value: string) => void;
  /** Asks the site: without a project, its projects; with one, that project's choices too. */
  onLoad: (projectKey?: string) => void;
}) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const signInTyped = JIRA_SIGN_IN_FIELDS.every((name) => (values[name] ?? '').trim() !== '');
  const projectChosen = Boolean(choices && values.projectKey);
  return (
    <>
      {(
        [
          ['siteUrl', 'Site URL', 'text', 'https://your-site.atlassian.net'],
          ['email', 'Atlassian e-mail', 'text', undefined],
          ['apiToken', 'API token', 'password', undefined],
        ] as const
      ).map(([name, label, type, placeholder]) => (
        <label key={name} htmlFor={id(name)}>
          <span className="block font-medium text-ink">{label}</span>
          <input
            id={id(name)}
            required
            type={type}
            autoComplete="off"
            placeholder={placeholder}
            className={INPUT}
            value={values[name] ?? ''}
            onChange={(event) => onChange(name, event.target.value)}
          />
        </label>
      ))}
      <div className="flex items-end">
        <button
          type="button"
          className={BUTTON.secondary}
          disabled={disabled || loading || !signInTyped}
          onClick={() => onLoad()}
        >
          {loading ? 'Loading…' : choices ? 'Reload projects' : 'Load projects'}
        </button>
      </div>
      <label htmlFor={id('projectKey')}>
        <span className="block font-medium text-ink">Project</span>
        <select
          id={id('projectKey')}
          required
          className={SELECT}
          disabled={disabled || loading || !choices}
          value={values.projectKey ?? ''}
          onChange={(event) => {
            onChange('projectKey', event.target.value);
            if (event.target.value) onLoad(event.target.value);
          }}
        >
          <option value="">
            {!choices
              ? 'Load projects first'
              : choices.projects.length
                ? 'Choose a project'
                : 'This account sees no project'}
          </option>
          {choices?.projects.map((p) => (
            <option key={p.key} value={p.key}>
              {p.name} ({p.key})
            </option>
          ))}
        </select>
      </label>
      <label htmlFor={id('issueType')}>
        <span className="block font-medium text-ink">Issue type</span>
        <select
          id={id('issueType')}
          required
          className={SELECT}
          disabled={disabled || loading || !projectChosen}
          value={values.issueType ?? ''}
          onChange={(event) => onChange('issueType', event.target.value)}
        >
          <option value="">{projectChosen ? 'Choose an issue type' : 'Choose a project first'}</option>
          {projectChosen &&
            choices?.issueTypes.map((t) => (
              <option key={t.id} value={t.name}>
                {t.name}
              </option>
            ))}
        </select>
      </label>
      <label htmlFor={id('doneTransition')}>
        <span className="block font-medium text-ink">Transition when fixed</span>
        <select
          id={id('doneTransition')}
          required
          className={SELECT}
          disabled={disabled || loading || !projectChosen}
          value={values.doneTransition ?? ''}
          onChange={(event) => onChange('doneTransition', event.target.value)}
        >
          <option value="">
            {!projectChosen
              ? 'Choose a project first'
              : choices?.transitions.length
                ? 'Choose the done status'
                : 'This project’s workflow has no done status'}
          </option>
          {projectChosen &&
            choices?.transitions.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
        </select>
      </label>
    </>
  );
}
