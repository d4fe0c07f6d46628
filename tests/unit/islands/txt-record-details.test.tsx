import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FailedVerification } from '../../../src/islands/dashboard/domains/FailedVerification.tsx';
import { TxtRecordDetails } from '../../../src/islands/dashboard/domains/TxtRecordDetails.tsx';
import type { DomainView } from '../../../src/model/contract.ts';

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const domain = (name: string, recordName: string) =>
  ({
    domain: name,
    status: 'failed',
    error: null,
    txtRecord: { type: 'TXT', name: recordName, value: 'danglewatch-verify=abc' },
  }) as unknown as DomainView;

describe('the TXT record to publish', () => {
  it('names the exact host of a subdomain, never the root domain', () => {
    const sub = text(renderToStaticMarkup(<TxtRecordDetails domain={domain('app.example.com', 'app')} />));
    expect(sub).toContain('app (the host app.example.com, in the DNS zone of example.com)');
    expect(sub).not.toContain('root domain');
    const failed = text(
      renderToStaticMarkup(
        <FailedVerification
          domain={domain('app.example.com', 'app')}
          serviceError={null}
          verifying={false}
          disabled={false}
        />,
      ),
    );
    expect(failed).toContain('Add the record at app.example.com exactly (name app), not at another host');
  });

  it('says @ is the registered domain itself', () => {
    const apex = text(renderToStaticMarkup(<TxtRecordDetails domain={domain('example.com', '@')} />));
    expect(apex).toContain('@ (@ or empty: example.com itself)');
  });
});
