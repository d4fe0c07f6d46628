import type { RegistrationDetails } from '../../connectors/rdap/rdap.ts';
import type { Candidate, Pointer, ScanContext } from '../context.ts';
import { rdapProof } from '../proof/rdap.ts';
import { expiringTexts } from '../report/texts.ts';
import { mapLimit } from '../util/limit.ts';
import { unregisteredCandidate } from './unregistered.ts';

/** A registration ending this soon is a warning: the record dangles the day it lapses. */
const EXPIRY_WARNING_DAYS = 30;
const DAY_MS = 86_400_000;
/** The registry statuses of a domain on its way out: it will be free to register within weeks. */
const LAPSING = ['pendingdelete', 'redemptionperiod'];
/** Registries asked at once: one after the other, up to 200 slow RDAP answers held the scan for minutes. */
export const RDAP_WIDTH = 8;

interface Lapse {
  /** The registry status that says the domain is being deleted. */
  status: string | undefined;
  /** Days to the expiry date (negative: past it), when the registry gives one. */
  days: number | undefined;
}

/** Whether a registration is lapsing, and how: being deleted, past expiry, or expiring soon. */
export function lapse(details: RegistrationDetails | undefined, now: number): Lapse | undefined {
  if (!details) return undefined;
  const status = details.statuses.find((s) => LAPSING.includes(s));
  const days = details.expires ? Math.floor((Date.parse(details.expires) - now) / DAY_MS) : undefined;
  if (status) return { status, days };
  return days !== undefined && days <= EXPIRY_WARNING_DAYS ? { status: undefined, days } : undefined;
}

/**
 * Past its expiry date and being deleted: free to register any day now (claimable). Past the
 * date alone, or being deleted before it: likely. Lapsing within 30 days: a warning (review).
 */
export function grade(found: Lapse) {
  const expired = found.days !== undefined && found.days < 0;
  if (found.status && expired) return { status: 'claimable', risk: 'high' } as const;
  if (found.status || expired) return { status: 'likely', risk: 'medium' } as const;
  return { status: 'review', risk: 'medium' } as const;
}

function lapseText(registrable: string, found: Lapse) {
  const parts: string[] = [];
  if (found.days !== undefined)
    parts.push(
      found.days < 0
        ? `${registrable} expired ${-found.days} days ago`
        : `${registrable} expires in ${found.days} days`,
    );
  if (found.status) parts.push(`registry status ${found.status}: it is being deleted`);
  return parts.join('; ');
}

/**
 * Registration decides, not resolution: every registrable domain a record leads into (CNAME
 * hops, NS, MX, SRV, SPF includes; up to 200 per scan) is looked up in RDAP. One nobody has
 * registered is claimable whether or not its names still resolve (parking, sinkholes, stale
 * caches); one past its expiry date or being deleted is claimable or likely; one lapsing within
 * 30 days is a warning. Whoever registers it controls what the record points at.
 */
export async function detectExpiring(ctx: ScanContext, now = Date.now()): Promise<Candidate[]> {
  const rdap = ctx.rdap;
  if (!rdap) return [];
  const pointers = [...ctx.pointedAt];
  const found = await mapLimit(pointers, RDAP_WIDTH, ([registrable, pointer]) =>
    registrationCandidate(ctx, registrable, pointer, now),
  );
  return found.filter((c) => c !== undefined);
}

/** What the registration of the domain a record points into says: unregistered, lapsing, or nothing. */
export async function registrationCandidate(
  ctx: ScanContext,
  registrable: string,
  pointer: Pointer,
  now = Date.now(),
): Promise<Candidate | undefined> {
  const rdap = ctx.rdap;
  if (!rdap) return undefined;
  if ((await rdap.lookup(registrable)) === 'unregistered') {
    const unregistered = await ctx.unregistered(pointer.target);
    return unregistered
      ? unregisteredCandidate(ctx, {
          subdomain: pointer.subdomain,
          recordType: pointer.recordType,
          target: pointer.target,
          registrable: unregistered,
          evidence: [`${pointer.subdomain} ${pointer.recordType} ${pointer.target}`],
        })
      : undefined;
  }
  const lapsing = lapse(await rdap.details(registrable), now);
  return lapsing ? candidate(ctx, registrable, pointer, lapsing, now) : undefined;
}

function candidate(
  ctx: ScanContext,
  registrable: string,
  pointer: Pointer,
  found: Lapse,
  now: number,
): Candidate {
  const deleting = found.status !== undefined || (found.days !== undefined && found.days < 0);
  return {
    kind: 'expiring-domain',
    finding: {
      subdomain: pointer.subdomain,
      recordType: pointer.recordType,
      target: pointer.target,
      service: `registration of ${registrable}`,
      ...grade(found),
      evidence: [
        `${pointer.subdomain} ${pointer.recordType} ${pointer.target}`,
        `${lapseText(registrable, found)} (RDAP)`,
      ],
      ...expiringTexts(pointer.recordType, registrable, deleting),
      ...(grade(found).status === 'claimable'
        ? { proof: rdapProof(registrable, lapseText(registrable, found), true) }
        : {}),
    },
    recheck: async () => {
      const again = lapse(await ctx.rdap?.details(registrable, true), now);
      return again ? `RDAP asked again: ${lapseText(registrable, again)}` : undefined;
    },
  };
}
