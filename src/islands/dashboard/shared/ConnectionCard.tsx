import { type ReactNode, useState } from 'react';
import { failureMessage } from '../../../lib/dashboard/dns-actions.ts';
import { formatDateTime } from '../../../lib/dashboard/format.ts';
import { providerWords } from '../../../lib/request/errors.ts';
import type { DisabledView } from '../../../model/connections.ts';
import { BUTTON } from './buttons.ts';
import { FailureNotice } from './FailureNotice.tsx';

/** What a Settings list gives each card of a kind read on a schedule (DNS connections, cloud accounts). */
export interface SyncedCardProps<T> {
  /** Offline, or the caller may not manage it: its calls wait. */
  disabled: boolean;
  /** Its queued read has not shown yet. */
  reading: boolean;
  /** Something changed on the server: read the list again. */
  onChanged: () => void;
  /** A read was queued: follow it until it shows. */
  onSyncQueued: (item: T) => void;
  onRemove: (item: T) => void;
}

/**
 * A card's calls to the server, one at a time: `busy` while one runs, and the failure of the last
 * in words (`failed` when the server gave none), with the provider's own words as its `detail`.
 */
export function useCardAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [detail, setDetail] = useState<string | null>(null);
  const run = async (work: () => Promise<void>, failed: string) => {
    setBusy(true);
    setError(null);
    setDetail(null);
    try {
      await work();
    } catch (cause) {
      setError(failureMessage(cause, failed));
      setDetail(providerWords(cause));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, detail, run };
}

interface ConnectionCardProps {
  /** The card's test id; its state line is `${testId}-state`, its disabled banner `${testId}-disabled`. */
  testId: string;
  title: ReactNode;
  /** What it is (the provider, or where it sends findings), its credential's hint and when it was added. */
  meta: { what: ReactNode; credentialHint: string; added: ReactNode };
  /** Its buttons (sync, test, remove, …). */
  actions: ReactNode;
  /** The last success in words ("Last read: …"), with its test id. */
  last: ReactNode;
  lastTestId: string;
  /**
   * The last failure in plain words, with its heading ("Sync failing since …:") and the provider's
   * own words as its detail; none while it works.
   */
  failure: { title: string; words: string; detail?: string | null; testId?: string } | null;
  /** Its state: disabled (and why) or not, and who answers for it; every kind's view has both. */
  connection: { disabled: DisabledView; answeredBy: string | null };
  /** Re-enables it (PATCH `{ enabled: true }`); whoever does answers for it from then on. */
  onEnable: () => Promise<void>;
  /** The caller may not manage it: the re-enable button is off. */
  readOnly?: boolean;
  children?: ReactNode;
}

/**
 * One outside account in Settings (a DNS connection, a cloud account, an integration), the same
 * card for each: what it is, its state (live, or disabled and why, with Re-enable), who answers for
 * it, its last success and its last failure in plain words, its buttons, and what is its own below.
 */
export function ConnectionCard({
  testId,
  title,
  meta,
  actions,
  last,
  lastTestId,
  failure,
  connection: { disabled, answeredBy },
  onEnable,
  readOnly = false,
  children,
}: ConnectionCardProps) {
  const [enabling, setEnabling] = useState(false);
  const enable = async () => {
    setEnabling(true);
    try {
      await onEnable();
    } finally {
      setEnabling(false);
    }
  };
  return (
    <li className="rounded-lg border border-slate-200 p-4" data-testid={testId}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-semibold text-ink">{title}</h3>
          <p className="mt-1 text-xs text-slate-600">
            {meta.what} · credential <code>…{meta.credentialHint}</code> · {meta.added}
          </p>
          <p className="mt-1 text-xs text-slate-600" data-testid={`${testId}-state`}>
            {disabled ? 'Disabled' : 'Active'} ·{' '}
            {answeredBy ? `${answeredBy} answers for it` : 'nobody answers for it yet'}
          </p>
          <p className="mt-1 text-xs text-slate-600" data-testid={lastTestId}>
            {last}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">{actions}</div>
      </div>
      {disabled && (
        <div
          role="status"
          className="mt-3 flex flex-wrap items-center justify-between gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          data-testid={`${testId}-disabled`}
        >
          <span>
            <span className="font-semibold">Disabled {formatDateTime(disabled.at)}:</span> {disabled.reason}.
            Nothing is read or sent through it until an admin re-enables it.
          </span>
          <button type="button" className={BUTTON.small} disabled={readOnly || enabling} onClick={enable}>
            {enabling ? 'Re-enabling...' : 'Re-enable'}
          </button>
        </div>
      )}
      {failure && (
        <FailureNotice className="mt-3" detail={failure.detail} testId={failure.testId}>
          <span className="font-semibold">{failure.title}</span> {failure.words}
        </FailureNotice>
      )}
      {children}
    </li>
  );
}

/** A card's Remove button, named for what it removes; the caller asks before removing. */
export function RemoveButton({
  label,
  onClick,
  disabled = false,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      className={BUTTON.small}
      disabled={disabled}
      aria-label={`Remove ${label}`}
      onClick={onClick}
    >
      Remove
    </button>
  );
}

/** What the card's last call failed with, in words, and the provider's; nothing while none failed. */
export function CardError({ error, detail }: { error: string | null; detail?: string | null }) {
  if (!error) return null;
  return (
    <FailureNotice className="mt-3" detail={detail}>
      {error}
    </FailureNotice>
  );
}

/** Asks for a read now: off while the caller may not, a read is on its way, or the card is disabled. */
export function SyncButton({
  onClick,
  off,
  queuing = false,
}: {
  onClick: () => void;
  off: boolean;
  queuing?: boolean;
}) {
  return (
    <button type="button" className={BUTTON.small} disabled={off || queuing} onClick={onClick}>
      {queuing ? 'Queuing...' : 'Sync now'}
    </button>
  );
}
