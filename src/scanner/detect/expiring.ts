import type { Candidate, Pointer, ScanContext } from '../context.ts';
import type { RegistrationDetails } from '../discover/rdap.ts';
import { expiringTexts } from '../report/texts.ts';
import { mapLimit } from '../util/limit.ts';

/** A registration ending this soon is a warning: the record dangles the day it lapses. */
const EXPIRY_WARNING_DAYS = 30;
const DAY_MS = 86_400_000;
/** The registry statuses of a domain on its way out: it will be free to register within weeks. */
const LAPSING = ['pendingdelete', 'redemptionperiod'];
/** Registries asked at once: one after the other, up to 200 slow RDAP answers held the scan for minutes. */
export const RDAP_WIDTH = 8;

function lapse(details: RegistrationDetails | undefined, now: number) {
  if (!details) return undefined;
  const status = details.statuses.find((s) => LAPSING.includes(s));
  if (status) return { status, days: undefined };
  if (!details.expires) return undefined;
  const days = Math.floor((Date.parse(details.expires) - now) / DAY_MS);
  return days <= EXPIRY_WARNING_DAYS ? { status: undefined, days } : undefined;
}

/**
 * Registrations about to lapse: a domain that a CNAME, NS or MX record leads into, whose RDAP
 * expiry date is within 30 days (review) or whose registry status says it is being deleted
 * (likely). Whoever registers it once it drops controls what the record points at.
 */
export async function detectExpiring(ctx: ScanContext, now = Date.now()): Promise<Candidate[]> {
  const rdap = ctx.rdap;
  if (!rdap) return [];
  const pointers = [...ctx.pointedAt];
  const lapses = await mapLimit(pointers, RDAP_WIDTH, async ([registrable]) =>
    lapse(await rdap.details(registrable), now),
  );
  const candidates: Candidate[] = [];
  pointers.forEach(([registrable, pointer], i) => {
    const found = lapses[i];
    if (found) candidates.push(candidate(ctx, registrable, pointer, found, now));
  });
  return candidates;
}

function candidate(
  ctx: ScanContext,
  registrable: string,
  pointer: Pointer,
  found: NonNullable<ReturnType<typeof lapse>>,
  now: number,
): Candidate {
  const what = found.status
    ? `${registrable} has registry status ${found.status}: it is being deleted`
    : `${registrable} expires in ${found.days} days`;
  return {
    kind: 'expiring-domain',
    finding: {
      subdomain: pointer.subdomain,
      recordType: pointer.recordType,
      target: pointer.target,
      service: `registration of ${registrable}`,
      status: found.status ? 'likely' : 'review',
      risk: 'medium',
      evidence: [`${pointer.subdomain} ${pointer.recordType} ${pointer.target}`, `${what} (RDAP)`],
      ...expiringTexts(pointer.recordType, registrable, found.status !== undefined),
    },
    recheck: async () => {
      const again = lapse(await ctx.rdap?.details(registrable, true), now);
      return again ? `RDAP asked again: ${again.status ?? `${again.days} days left`}` : undefined;
    },
  };
}
