import { z } from 'zod';

/** A host-name suffix; a label may hold `*` (one or more of [a-z0-9-]), e.g. `awsdns-*.com`. */
const suffix = z
  .string()
  .regex(/^[a-z0-9*-]+(\.[a-z0-9*-]+)+$/, 'a lower-case host-name suffix, `*` allowed inside labels');

/** What one HTTP or HTTPS response must show, all of it in the same response. */
const httpEvidenceSchema = z.object({
  /** Any of these status codes (absent: any status). */
  status: z.array(z.number().int().min(100).max(599)).optional(),
  /** Every string must appear in the body (none: the status alone, on the service's own host). */
  body: z.array(z.string().min(6)).default([]),
  /** At least one of these must appear too: the page as different sources or versions show it. */
  anyBody: z.array(z.string().min(6)).default([]),
  /** Headers that must be present, with a value containing `contains`. */
  headers: z.array(z.object({ name: z.string(), contains: z.string() })).default([]),
  /**
   * The unclaimed page as a reference gives it, in words any 404 could say: a page variant only
   * where the record points at the service's own suffix or address, never under a suffix of its
   * domain the references do not document.
   */
  generic: z.array(z.string().min(3)).default([]),
});

const sourceSchema = z.object({ url: z.url(), date: z.iso.date() });

export const entrySchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    service: z.string(),
    /** Where the record must point for the entry to apply. */
    cname: z.array(suffix).default([]),
    ips: z.array(z.ipv4().or(z.ipv6())).default([]),
    /**
     * CNAME targets the entry never applies to, though its patterns match them: another service's
     * or the service's own hosts that answer alike (BadDNS's `not_cnames`).
     */
    notCname: z.array(suffix).default([]),
    ns: z.array(suffix).default([]),
    mx: z.array(suffix).default([]),
    /**
     * The DNS condition: `resolves` (the target exists and the HTTP evidence holds), `nxdomain`
     * (the target name does not exist), `zone-missing` (the delegated servers refuse the zone).
     */
    dns: z.enum(['resolves', 'nxdomain', 'zone-missing']),
    http: httpEvidenceSchema.optional(),
    /** Body strings or header names whose presence cancels the evidence. */
    negative: z.object({ body: z.array(z.string()).default([]), headers: z.array(z.string()).default([]) }),
    /**
     * `retired`: the newest dated source says the service (or this suffix of it) is gone, so
     * nobody can create the name again; like `not-vulnerable`, the record is only stale.
     */
    status: z.enum(['vulnerable', 'edge', 'not-vulnerable', 'retired']),
    /**
     * What the service checks about the custom domain itself before it serves it (a TXT record
     * under the name, say): a shared edge host that does so hands the name to nobody who cannot
     * publish that record, whatever its page says.
     */
    verifiesDomain: z.string().min(10).optional(),
    reviewed: z.iso.date(),
    reason: z.string().min(10),
    /** What the unclaimed thing is called on the service: an app, a bucket, a site. */
    resource: z.string(),
    explanation: z.string().min(20),
    proofOfConcept: z.string().min(20),
    remediation: z.string().min(20),
    /** The claim needs a paid plan or a purchase: a vulnerable entry is then `likely`, not `claimable`. */
    paid: z.boolean().default(false),
    /** Where the status and fingerprint come from, each with the date of what it says. */
    sources: z.array(sourceSchema).min(1),
  })
  .refine((e) => e.cname.length + e.ips.length + e.ns.length + e.mx.length > 0, 'an entry needs a target')
  .refine((e) => (e.dns === 'resolves') === (e.http !== undefined), '`resolves` entries need HTTP evidence')
  .refine((e) => e.dns !== 'zone-missing' || e.ns.length > 0, '`zone-missing` entries need nameservers')
  .refine(
    (e) =>
      !e.http ||
      e.http.body.length + e.http.anyBody.length + e.http.generic.length > 0 ||
      e.http.status !== undefined,
    'HTTP evidence needs body text or a status',
  );

export type Entry = z.infer<typeof entrySchema>;
