import { z } from 'zod';
import { FINDING_STATUSES } from '../../model/contract.ts';

/**
 * Microsoft Teams and Discord messages built from the payload a webhook delivery stores (a test
 * delivery, or a scan's changes: docs/webhooks.md). The payload is read again here, field by field,
 * so an older or odd row still makes a message rather than a failed delivery.
 */

const finding = z.object({
  subdomain: z.string(),
  recordType: z.string(),
  target: z.string(),
  service: z.string(),
  status: z.enum(FINDING_STATUSES),
  from: z.object({ status: z.enum(FINDING_STATUSES) }).optional(),
});
type Finding = z.infer<typeof finding>;

const payloadSchema = z.object({
  text: z.string().catch('DangleWatch'),
  domain: z.string().optional().catch(undefined),
  scanUrl: z
    .url({ protocol: /^https?$/ })
    .optional()
    .catch(undefined),
  new: z.array(finding).catch([]),
  worse: z.array(finding).catch([]),
  resolved: z.array(finding).catch([]),
});

/** Lines per list in a message; the rest is counted. Chat messages are read, not searched. */
const LIST_LINES = 20;

const line = (f: Finding) =>
  `${f.subdomain} ${f.recordType} → ${f.target} (${f.service}, ${f.from ? `${f.from.status} → ` : ''}${f.status})`;

function readPayload(payload: Record<string, unknown>) {
  const p = payloadSchema.parse(payload);
  const lists = [
    { title: 'New', findings: p.new },
    { title: 'Worse', findings: p.worse },
    { title: 'Resolved', findings: p.resolved },
  ]
    .filter((list) => list.findings.length > 0)
    .map((list) => {
      const rest = list.findings.length - LIST_LINES;
      return {
        title: `${list.title} (${list.findings.length})`,
        count: list.findings.length,
        lines: list.findings.slice(0, LIST_LINES).map(line),
        more: rest > 0 ? `… and ${rest} more` : null,
      };
    });
  const heading = p.domain ? `DangleWatch: changes on ${p.domain}` : 'DangleWatch';
  const claimable = [...p.new, ...p.worse].some((f) => f.status === 'claimable');
  return { ...p, lists, heading, claimable };
}

/** As many whole lines as fit in `max` characters, then how many of `count` were left out. */
function fitLines(lines: string[], count: number, max: number): string {
  const room = max - `\n… and ${count} more`.length;
  const shown: string[] = [];
  let used = 0;
  for (const l of lines) {
    if (used + l.length + 1 > room) break;
    shown.push(l);
    used += l.length + 1;
  }
  const rest = count - shown.length;
  return [...shown, ...(rest > 0 ? [`… and ${rest} more`] : [])].join('\n');
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * A Teams message carrying one Adaptive Card: the format Teams' incoming webhooks (and the
 * Workflows app's "when a webhook request is received") accept.
 */
export function teamsMessage(payload: Record<string, unknown>): Record<string, unknown> {
  const p = readPayload(payload);
  const body: Record<string, unknown>[] = [
    { type: 'TextBlock', text: p.heading, weight: 'Bolder', size: 'Medium', wrap: true },
    { type: 'TextBlock', text: p.text, wrap: true },
  ];
  for (const list of p.lists) {
    body.push(
      { type: 'TextBlock', text: list.title, weight: 'Bolder', spacing: 'Medium', wrap: true },
      {
        type: 'TextBlock',
        text: [...list.lines.map((l) => `- ${l}`), ...(list.more ? [list.more] : [])].join('\n'),
        wrap: true,
      },
    );
  }
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          ...(p.scanUrl
            ? { actions: [{ type: 'Action.OpenUrl', title: 'Open the scan', url: p.scanUrl }] }
            : {}),
        },
      },
    ],
  };
}

/**
 * Discord's limits on what a webhook message may carry; the description is held shorter than its
 * own 4096 so that title, description and three full fields stay within the 6000 an embed may hold.
 */
const DISCORD = { content: 2000, title: 256, description: 2500, fieldValue: 1024 } as const;
const COLOURS = { claimable: 0xd93025, changed: 0xf29900, quiet: 0x1e8e3e } as const;

/** A Discord execute-webhook body: the text as `content`, the changes as one embed; it pings no one. */
export function discordMessage(payload: Record<string, unknown>): Record<string, unknown> {
  const p = readPayload(payload);
  const changed = p.lists.some((l) => !l.title.startsWith('Resolved'));
  return {
    content: clip(p.text, DISCORD.content),
    embeds: [
      {
        title: clip(p.heading, DISCORD.title),
        ...(p.scanUrl ? { url: p.scanUrl } : {}),
        description: clip(p.text, DISCORD.description),
        color: p.claimable ? COLOURS.claimable : changed ? COLOURS.changed : COLOURS.quiet,
        fields: p.lists.map((list) => ({
          name: list.title,
          value: fitLines(list.lines, list.count, DISCORD.fieldValue),
        })),
      },
    ],
    allowed_mentions: { parse: [] },
  };
}
