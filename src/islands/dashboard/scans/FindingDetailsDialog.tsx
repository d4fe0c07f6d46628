import { useState } from 'react';
import { formatDateTime } from '../../../lib/dashboard/format.ts';
import type { FindingRecord } from '../../../model/contract.ts';
import { Dialog } from '../shared/Dialog.tsx';
import { FindingCard } from './FindingCard.tsx';
import { FindingHistory } from './FindingHistory.tsx';

/**
 * One finding opened from its link (a ticket, a page, a Linear attachment): its latest report with
 * the evidence, proof and fix, and its history, where it can be accepted as a risk as in a scan.
 */
export function FindingDetailsDialog({
  record: initial,
  onClose,
}: {
  record: FindingRecord;
  onClose: () => void;
}) {
  const [record, setRecord] = useState(initial);
  const state = record.resolvedAt
    ? `resolved ${formatDateTime(record.resolvedAt)}`
    : record.accepted
      ? 'accepted as a risk'
      : 'open';
  return (
    <Dialog
      title={`Finding: ${record.finding.subdomain}`}
      description={`${record.domain} · ${state} · key ${record.key}`}
      onClose={onClose}
      wide
    >
      <div data-testid="linked-finding" className="space-y-3">
        <FindingCard finding={record.finding} headingLevel="h3" />
        <FindingHistory record={record} onChange={setRecord} />
      </div>
    </Dialog>
  );
}
