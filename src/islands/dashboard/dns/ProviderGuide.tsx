import type { DnsProviderInfo } from '../../../lib/dashboard/dns-providers.ts';
import { CopyButton } from '../shared/CopyButton.tsx';

/** How to make a read-only credential at a provider: the least privilege, step by step. */
export function ProviderGuide({ provider }: { provider: DnsProviderInfo }) {
  return (
    <section
      aria-label={`Setting up ${provider.label}`}
      className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm"
      data-testid="provider-guide"
    >
      <p className="font-semibold text-ink">Least privilege: {provider.privilege}</p>
      <ol className="mt-2 list-inside list-decimal space-y-1 text-slate-700">
        {provider.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      {provider.policy && (
        <div className="mt-2">
          <div className="flex items-center justify-between">
            <span className="text-xs font-medium text-slate-700">IAM policy</span>
            <CopyButton
              value={provider.policy}
              label={`Copy the ${provider.label} policy`}
              copied="IAM policy copied to clipboard"
            />
          </div>
          <pre className="mt-1 overflow-x-auto rounded bg-white p-2 text-xs" data-testid="provider-policy">
            {provider.policy}
          </pre>
        </div>
      )}
      <p className="mt-2 text-xs text-slate-600">
        DangleWatch only ever sends read calls. The credential is sealed on the server and never shown again;
        removing the connection deletes it at once.
      </p>
    </section>
  );
}
