import type { IntegrationKind } from '../../../model/integrations.ts';

/**
 * The fields each service asks for: its settings, then its credential (never shown again). Jira's are
 * drawn by JiraFields, which offers the project, issue type and transition from the site's answer.
 */
export const INTEGRATION_FIELDS: Record<
  IntegrationKind,
  {
    settings: { name: string; label: string; placeholder: string }[];
    credentials: { name: string; label: string }[];
  }
> = {
  pagerduty: { settings: [], credentials: [{ name: 'routingKey', label: 'Integration (routing) key' }] },
  github: {
    settings: [
      { name: 'repository', label: 'Repository', placeholder: 'owner/name or https://github.com/owner/name' },
    ],
    credentials: [{ name: 'token', label: 'Token with issues: write on that repository' }],
  },
  jira: {
    settings: [
      { name: 'siteUrl', label: 'Site URL', placeholder: 'https://your-site.atlassian.net' },
      { name: 'projectKey', label: 'Project key', placeholder: 'OPS' },
      { name: 'issueType', label: 'Issue type', placeholder: 'Bug' },
      { name: 'doneTransition', label: 'Transition when fixed', placeholder: 'Done' },
    ],
    credentials: [
      { name: 'email', label: 'Atlassian e-mail' },
      { name: 'apiToken', label: 'API token' },
    ],
  },
  linear: {
    // Linear's calls take the team's id; people know its key (the issues' prefix): either is resolved at connect.
    settings: [{ name: 'teamId', label: 'Team key or name', placeholder: 'SEC' }],
    credentials: [{ name: 'apiKey', label: 'Personal API key' }],
  },
};
