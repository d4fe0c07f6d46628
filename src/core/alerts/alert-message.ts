import type { FindingChanges, FindingRef, FindingView } from '../../model/contract.ts';
import { proofSentence } from '../../model/proof.ts';
import { dashboardLink } from '../../model/workspaces.ts';
import type { MailMessage } from '../mail/mailer.ts';

const RANK: Record<FindingView['status'], number> = { review: 0, likely: 1, claimable: 2 };

/** A finding an alert tells about, with what proves it (provenAlert adds it). */
type Proven<R> = R & { proof?: FindingView['proof'] };

export interface AlertChanges {
  new: Proven<FindingRef>[];
  worse: Proven<FindingChanges['changed'][number]>[];
  resolved: FindingRef[];
}

/** What deserves an alert: new findings, findings whose status got worse, and resolved ones. */
export function alertChanges(
  changes: FindingChanges,
  skip: (f: FindingRef) => boolean = () => false,
): AlertChanges {
  return {
    new: changes.new.filter((f) => !skip(f)),
    worse: changes.changed.filter((f) => RANK[f.status] > RANK[f.from.status] && !skip(f)),
    resolved: changes.resolved.filter((f) => !skip(f)),
  };
}

export function isEmpty(alert: AlertChanges): boolean {
  return alert.new.length + alert.worse.length + alert.resolved.length === 0;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * One e-mail per scan that changed something: each new or worse finding with what it means and its
 * fix, each resolved one, a link to the scan, and the one-click unsubscribe link (RFC 8058).
 */
function openLine(domain: string, open: number): string {
  return open === 0
    ? `${domain} has no open findings now.`
    : `${domain} has ${plural(open, 'open finding')} now (accepted risks not counted).`;
}

export function alertMessage(input: {
  to: string;
  domain: string;
  scanId: string;
  /** The scan's workspace: the link opens the dashboard on it. */
  workspaceId: string;
  alert: AlertChanges;
  /** The scan's findings, for each one's explanation and fix. */
  findings: FindingView[];
  /** The domain's open findings now, not accepted: what the dashboard counts. */
  openNow: number;
  publicUrl: string;
  /** This recipient's own link: in a team workspace it stops their alerts, not the team's. */
  unsubscribeUrl: string;
  /** The team workspace's name, when the domain is a team's. */
  team?: string;
}): MailMessage {
  const { alert, domain } = input;
  const stop = input.team
    ? `Stop the ${input.team} workspace's alerts to you`
    : `Stop these alerts for ${domain}`;
  const details = dashboardLink(
    input.publicUrl,
    '/dashboard',
    { section: 'scans', scan: input.scanId },
    input.workspaceId,
  );
  const full = (ref: FindingRef) =>
    input.findings.find(
      (f) => f.subdomain === ref.subdomain && f.recordType === ref.recordType && f.target === ref.target,
    );
  const open = [
    ...alert.new.map((f) => ({ f, label: 'New' })),
    ...alert.worse.map((f) => ({ f, label: `Now ${f.status}, was ${f.from.status}` })),
  ];
  const parts = [
    alert.new.length ? plural(alert.new.length, 'new dangling record') : '',
    alert.worse.length ? `${plural(alert.worse.length, 'finding', 'findings')} got worse` : '',
    alert.resolved.length ? plural(alert.resolved.length, 'resolved finding') : '',
  ].filter(Boolean);
  const subject = `DangleWatch: ${parts.join(', ')} on ${domain}`;

  const textBlocks = open.map(({ f, label }) => {
    const found = full(f);
    return [
      `${label}: ${f.subdomain} ${f.recordType} ${f.target} (${f.service}), ${f.status}`,
      f.proof ? `  Proof: ${proofSentence(f.proof)} (${f.proof.checkedAt})` : '',
      found ? `  What it means: ${found.explanation}` : '',
      found ? `  How to fix it: ${found.remediation}` : '',
    ]
      .filter(Boolean)
      .join('\n');
  });
  const resolvedLines = alert.resolved.map(
    (f) => `Resolved: ${f.subdomain} ${f.recordType} ${f.target} no longer dangles.`,
  );
  const text = [
    `DangleWatch scanned ${domain} and found changes.`,
    '',
    ...textBlocks.flatMap((b) => [b, '']),
    ...resolvedLines,
    '',
    openLine(domain, input.openNow),
    `See the scan: ${details}`,
    '',
    `${stop}: ${input.unsubscribeUrl}`,
  ].join('\n');

  const htmlItems = open.map(({ f, label }) => {
    const found = full(f);
    return `<li><p><strong>${escapeHtml(label)}:</strong> <code>${escapeHtml(f.subdomain)}</code> ${escapeHtml(f.recordType)} <code>${escapeHtml(f.target)}</code> (${escapeHtml(f.service)}), ${escapeHtml(f.status)}</p>${
      f.proof
        ? `<p><strong>Proof:</strong> ${escapeHtml(proofSentence(f.proof))} (${escapeHtml(f.proof.checkedAt)})</p>`
        : ''
    }${
      found
        ? `<p>${escapeHtml(found.explanation)}</p><p><strong>How to fix it:</strong> ${escapeHtml(found.remediation)}</p>`
        : ''
    }</li>`;
  });
  const htmlResolved = alert.resolved.map(
    (f) =>
      `<li><p><strong>Resolved:</strong> <code>${escapeHtml(f.subdomain)}</code> ${escapeHtml(f.recordType)} <code>${escapeHtml(f.target)}</code> no longer dangles.</p></li>`,
  );
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">
<p>DangleWatch scanned <strong>${escapeHtml(domain)}</strong> and found changes.</p>
<ul>${[...htmlItems, ...htmlResolved].join('')}</ul>
<p>${escapeHtml(openLine(domain, input.openNow))}</p>
<p><a href="${escapeHtml(details)}">See the scan</a></p>
<p style="font-size:12px;color:#555"><a href="${escapeHtml(input.unsubscribeUrl)}">${escapeHtml(stop)}</a></p>
</body></html>`;

  return {
    to: input.to,
    subject,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${input.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
