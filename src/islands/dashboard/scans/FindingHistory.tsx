import { useId, useState } from 'react';
import { formatDateTime } from '../../../lib/dashboard/format.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { loadDomains, scansChanged } from '../../../lib/dashboard/store.ts';
import { toast } from '../../../lib/toast.ts';
import {
  ACCEPT_MAX_DAYS,
  defaultUntilDate,
  lapsedSentence,
  UNTIL_RECORD_CHANGES,
} from '../../../model/acceptance.ts';
import { RISK_NOTE_MAX } from '../../../model/constants.ts';
import type { FindingRecord } from '../../../model/contract.ts';
import { BUTTON } from '../shared/buttons.ts';
import { useCan } from '../shared/use-can.ts';

interface FindingHistoryProps {
  record: FindingRecord;
  onChange: (record: FindingRecord) => void;
}

/** A finding across scans: first and last seen, resolved, and accepting it as a risk with a note. */
export function FindingHistory({ record, onChange }: FindingHistoryProps) {
  const [editing, setEditing] = useState(false);
  const [note, setNote] = useState('');
  // Offered, never applied behind the user's back: the date is in the form, to change.
  const [until, setUntil] = useState(() => defaultUntilDate(new Date()));
  const [untilChange, setUntilChange] = useState(false);
  const untilId = useId();
  const [saving, setSaving] = useState(false);
  const mayAccept = useCan('findings.accept');
  const noteId = useId();

  // Each opening offers the default afresh: a date chosen for an acceptance since undone is not one.
  const openForm = () => {
    setNote('');
    setUntil(defaultUntilDate(new Date()));
    setUntilChange(false);
    setEditing(true);
  };

  const save = async (accepted: boolean) => {
    setSaving(true);
    try {
      const { finding } = await dashboardApi().findings.accept(
        record.id,
        accepted ? { note, until: untilChange ? UNTIL_RECORD_CHANGES : until } : null,
      );
      onChange(finding);
      setEditing(false);
      // The cards' marks and the domain's counts change with it.
      scansChanged();
      void loadDomains(dashboardApi().domains);
    } catch (cause) {
      toast({
        title: 'Could not save',
        description: cause instanceof Error ? cause.message : 'Please try again.',
        variant: 'destructive',
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <div
      className="mt-2 rounded-md bg-slate-50 px-3 py-2 text-xs text-slate-700"
      data-testid="finding-history"
    >
      <p>
        First seen {formatDateTime(record.firstSeenAt)} · Last seen {formatDateTime(record.lastSeenAt)}
        {record.resolvedAt && <> · Resolved {formatDateTime(record.resolvedAt)}</>}
      </p>
      {record.acceptanceEnded && !record.accepted && (
        <p className="mt-1 font-medium text-amber-900" data-testid="acceptance-ended">
          Open again:{' '}
          {lapsedSentence(record.acceptanceEnded.by, record.acceptanceEnded.until, record.acceptanceEnded.at)}
          .
        </p>
      )}
      {record.accepted ? (
        <p className="mt-1 wrap-anywhere">
          <span className="font-semibold">Accepted risk</span>
          {record.accepted.by && <> by {record.accepted.by}</>} on {formatDateTime(record.accepted.at)}
          {record.accepted.note && <>: “{record.accepted.note}”</>}.{' '}
          <span data-testid="accepted-until">
            {record.accepted.until === UNTIL_RECORD_CHANGES
              ? 'Until the record changes'
              : record.accepted.until
                ? `Until ${formatDateTime(record.accepted.until)}`
                : 'No expiry was recorded: it counts as expired'}
          </span>
          . No alerts for it until then.{' '}
          {mayAccept && (
            <button type="button" className="underline" disabled={saving} onClick={() => save(false)}>
              Undo
            </button>
          )}
        </p>
      ) : editing ? (
        <form
          className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            void save(true);
          }}
        >
          <label htmlFor={noteId} className="flex-1">
            <span className="block font-medium">Why is this risk acceptable?</span>
            <input
              id={noteId}
              className="mt-1 w-full rounded border border-slate-300 px-2 py-1 text-sm"
              maxLength={RISK_NOTE_MAX}
              required
              value={note}
              onChange={(event) => setNote(event.target.value)}
            />
          </label>
          <label htmlFor={untilId}>
            <span className="block font-medium">Until</span>
            <input
              id={untilId}
              type="date"
              className="mt-1 rounded border border-slate-300 px-2 py-1 text-sm"
              required={!untilChange}
              disabled={untilChange}
              min={new Date().toISOString().slice(0, 10)}
              max={new Date(Date.now() + ACCEPT_MAX_DAYS * 86_400_000).toISOString().slice(0, 10)}
              value={until}
              onChange={(event) => setUntil(event.target.value)}
            />
          </label>
          <label className="flex items-center gap-1">
            <input
              type="checkbox"
              checked={untilChange}
              onChange={(event) => setUntilChange(event.target.checked)}
            />
            until the record changes
          </label>
          <button type="submit" className={BUTTON.small} disabled={saving}>
            Accept risk
          </button>
          <button type="button" className={BUTTON.small} onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        mayAccept &&
        !record.resolvedAt && (
          <button type="button" className="mt-1 underline" onClick={openForm}>
            Accept this risk…
          </button>
        )
      )}
    </div>
  );
}
