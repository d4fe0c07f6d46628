import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ProofsOffNotice } from '../../../src/islands/dashboard/domains/ProofsOffNotice.tsx';
import type { ServiceHealthState } from '../../../src/lib/dashboard/service-health.ts';

const health = (proofsOff: ServiceHealthState['proofsOff']): ServiceHealthState => ({
  status: 'healthy',
  checks: { database: true, queue: true, worker: true },
  lastCheck: null,
  responseTime: null,
  error: null,
  proofsOff,
});

describe('the notice of proofs off on the domains screen', () => {
  it('names the providers whose findings stop at likely, and what the user can check, in their words', () => {
    const html = renderToStaticMarkup(
      <ProofsOffNotice health={health(['elastic-beanstalk', 'azure-cdn'])} />,
    );
    expect(html).toContain('data-testid="proofs-off"');
    expect(html).toContain(
      'Findings on AWS Elastic Beanstalk or Azure stop at &quot;likely&quot; here: this server cannot ask those providers whether a name is free to claim. Treat them as urgent all the same: check at AWS Elastic Beanstalk or Azure that what the record points to is still yours, or remove the record.',
    );
    expect(html).not.toMatch(/probe credentials|Proofs off/);
  });

  it('says nothing when every proof runs, or before the server has answered', () => {
    expect(renderToStaticMarkup(<ProofsOffNotice health={health([])} />)).toBe('');
    expect(renderToStaticMarkup(<ProofsOffNotice health={health(undefined)} />)).toBe('');
  });
});
