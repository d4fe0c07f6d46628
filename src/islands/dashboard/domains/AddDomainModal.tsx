import { useState } from 'react';
import { verifyDomain } from '../../../lib/dashboard/actions.ts';
import { checkAddDomainInput, suggestedDomain } from '../../../lib/dashboard/add-domain-check.ts';
import { domainsUsed } from '../../../lib/dashboard/format.ts';
import { addDomainErrorMessage, DASHBOARD_MESSAGES } from '../../../lib/dashboard/messages.ts';
import { provenParentOf } from '../../../lib/dashboard/proven-parent.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { $domains, upsertDomain } from '../../../lib/dashboard/store.ts';
import { toast } from '../../../lib/toast.ts';
import { companyDomain } from '../../../model/company-domain.ts';
import {
  DEFAULT_SCAN_CONFIG,
  type DomainView,
  type QuotaView,
  type ScanConfig,
} from '../../../model/contract.ts';
import { DOMAIN_MESSAGES } from '../../../model/domain-input.ts';
import { freeCoversNothing } from '../../../model/free-tier.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { signOutAndLeave } from '../../auth/ProtectedRoute.tsx';
import { BUTTON } from '../shared/buttons.ts';
import { Dialog } from '../shared/Dialog.tsx';
import { useCan } from '../shared/use-can.ts';
import { AddDomainConfigStep } from './AddDomainConfigStep.tsx';
import { AddDomainConnectStep } from './AddDomainConnectStep.tsx';
import { AddDomainInputStep } from './AddDomainInputStep.tsx';
import { AddDomainVerifyStep } from './AddDomainVerifyStep.tsx';
import { WebmailNotice } from './WebmailNotice.tsx';

interface AddDomainModalProps {
  quota: QuotaView | null;
  tier: string;
  email: string | null;
  monitored: readonly string[];
  serviceDown: boolean;
  onClose: () => void;
}

type Step = 'input' | 'config' | 'verify' | 'connect';

const TITLES: Record<Step, string> = {
  input: 'Add Domain to Monitor',
  config: 'Scan Configuration',
  verify: 'Domain Added - Verification Required',
  connect: 'Connect Your DNS Provider',
};

/**
 * The three-step add modal: the domain, its scan configuration, then the TXT record
 * to publish; or, instead of the TXT record, a connected DNS provider whose zone proves ownership.
 * Closing it unmounts it, which resets the step, the domain and the options.
 */
export function AddDomainModal({ quota, tier, email, monitored, serviceDown, onClose }: AddDomainModalProps) {
  const [step, setStep] = useState<Step>('input');
  // Connecting a DNS provider is an admin's; a member proves a domain with the TXT record.
  const mayConnect = useCan('dns-connections.manage');
  const [input, setInput] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const [config, setConfig] = useState<ScanConfig>(DEFAULT_SCAN_CONFIG);
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<string | null>(null);
  const [added, setAdded] = useState<DomainView | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [verifyError, setVerifyError] = useState<string | null>(null);

  const auth = useAuth();
  const emailDomain = companyDomain(email);
  // Free covers the domain of a work e-mail; signed in with webmail, no domain can be added at all.
  const webmailOnFree = freeCoversNothing(tier, email);
  const suggestion = suggestedDomain(email, monitored);
  const freeTierNotice =
    tier === 'free' && emailDomain
      ? `The Free plan monitors your e-mail domain (${emailDomain}) and its subdomains.`
      : null;

  /** The plan's domain limit, a down service and an offline browser block adding. */
  const blocked = (): string | null => {
    if (quota && quota.currentDomains >= quota.maxDomains) return DOMAIN_MESSAGES.limit(quota.maxDomains);
    if (serviceDown) return DASHBOARD_MESSAGES.serviceUnavailable;
    if (typeof navigator !== 'undefined' && !navigator.onLine) return DASHBOARD_MESSAGES.offline;
    return null;
  };

  const toConfig = () => {
    const check = checkAddDomainInput(input, { tier, email });
    if (!check.ok) {
      setInputError(check.message);
      return;
    }
    const reason = blocked();
    if (reason) {
      setInputError(reason);
      return;
    }
    setInput(check.domain);
    setStep('config');
  };

  const add = async () => {
    const reason = blocked();
    if (reason) {
      setAddError(reason);
      return;
    }
    setAdding(true);
    setAddError(null);
    try {
      const answer = await dashboardApi().domains.add(input, config);
      upsertDomain(answer.domain);
      // Covered by a proven parent of this workspace, or proven by the caller in another of their
      // workspaces: no TXT record to publish.
      if (answer.domain.status === 'verified') {
        const parent = provenParentOf(answer.domain.domain, $domains.get().domains);
        toast({
          title: DASHBOARD_MESSAGES.domainAdded,
          description: `${answer.domain.domain}: verified by ${parent ? `the proof of ${parent}` : 'your proof of it in another of your workspaces'}; its first scan has started.`,
        });
        onClose();
        return;
      }
      setAdded(answer.domain);
      setStep('verify');
      toast({
        title: DASHBOARD_MESSAGES.domainAdded,
        description: `${answer.domain.domain}: publish its TXT record next.`,
      });
    } catch (error) {
      const message = addDomainErrorMessage(error, quota?.maxDomains);
      setAddError(message);
      toast({ title: DASHBOARD_MESSAGES.addFailedTitle, description: message, variant: 'destructive' });
    } finally {
      setAdding(false);
    }
  };

  const startMonitoring = async () => {
    if (!added) return;
    setVerifying(true);
    const outcome = await verifyDomain(added.id);
    setVerifying(false);
    if (outcome.verified) onClose();
    else setVerifyError(outcome.serviceError ?? outcome.error);
  };

  const footer =
    step === 'input' && webmailOnFree ? (
      <button type="button" className={BUTTON.secondary} onClick={onClose}>
        Close
      </button>
    ) : step === 'input' ? (
      <>
        <button type="button" className={BUTTON.secondary} onClick={onClose}>
          Cancel
        </button>
        <button type="submit" form="add-domain-input" className={BUTTON.primary}>
          Configure Scanning
        </button>
      </>
    ) : step === 'connect' ? (
      <>
        <button type="button" className={BUTTON.secondary} onClick={() => setStep('input')}>
          Back
        </button>
        <button type="button" className={BUTTON.secondary} onClick={onClose}>
          Close
        </button>
      </>
    ) : step === 'config' ? (
      <>
        <button type="button" className={BUTTON.secondary} onClick={() => setStep('input')}>
          Back
        </button>
        <button type="button" className={BUTTON.secondary} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={BUTTON.primary} onClick={add} disabled={adding}>
          {adding ? 'Adding...' : 'Add Domain'}
        </button>
      </>
    ) : (
      <>
        <button type="button" className={BUTTON.secondary} onClick={onClose}>
          I'll Complete This Later
        </button>
        <button
          type="button"
          className={BUTTON.primary}
          onClick={startMonitoring}
          disabled={verifying || serviceDown}
        >
          {verifying ? 'Checking...' : 'Done, Start Monitoring'}
        </button>
      </>
    );

  return (
    <Dialog
      title={TITLES[step]}
      onClose={onClose}
      footer={footer}
      aside={
        quota && step === 'input' ? (
          <span
            className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-800"
            data-testid="domains-used"
          >
            {domainsUsed(quota.currentDomains, quota.maxDomains)}
          </span>
        ) : undefined
      }
    >
      {step === 'input' && webmailOnFree && (
        <WebmailNotice
          email={email}
          upgradeHref="/dashboard?section=settings&tab=plan"
          onSignInAgain={() => void signOutAndLeave(auth.signOut, '/login')}
        />
      )}
      {step === 'input' && !webmailOnFree && (
        <AddDomainInputStep
          value={input}
          onChange={(value) => {
            setInput(value);
            setInputError(null);
          }}
          error={inputError}
          suggestion={suggestion}
          freeTierNotice={freeTierNotice}
          onSubmit={toConfig}
        />
      )}
      {step === 'input' && mayConnect && !webmailOnFree && (
        <p className="mt-4 border-t border-slate-200 pt-3 text-sm text-slate-700">
          Rather not publish a TXT record?{' '}
          <button
            type="button"
            className="font-medium text-brand-700 underline"
            onClick={() => {
              const reason = blocked();
              if (reason) setInputError(reason);
              else setStep('connect');
            }}
          >
            Connect your DNS provider instead
          </button>
        </p>
      )}
      {step === 'connect' && <AddDomainConnectStep disabled={serviceDown} onMonitored={onClose} />}
      {step === 'config' && (
        <AddDomainConfigStep domain={input} config={config} onChange={setConfig} error={addError} />
      )}
      {step === 'verify' && added && <AddDomainVerifyStep domain={added} error={verifyError} />}
    </Dialog>
  );
}
