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
  it('names the providers the server has no probe credentials for', () => {
    const html = renderToStaticMarkup(
      <ProofsOffNotice health={health(['elastic-beanstalk', 'azure-cdn'])} />,
    );
    expect(html).toContain('data-testid="proofs-off"');
    expect(html).toContain('Proofs off: AWS Elastic Beanstalk, Azure.');
  });

  it('says nothing when every proof runs, or before the server has answered', () => {
    expect(renderToStaticMarkup(<ProofsOffNotice health={health([])} />)).toBe('');
    expect(renderToStaticMarkup(<ProofsOffNotice health={health(undefined)} />)).toBe('');
  });
});
