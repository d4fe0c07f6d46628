import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CATALOGUE_SOURCES, type CatalogueSource, catalogue } from './catalogue.ts';
import { type Entry, entrySchema } from './schema.ts';

const sourceSchema = z.object({
  name: z.string().min(1),
  // An absolute URL (https://, or file:// for a local copy): reports cite it as SARIF's informationUri.
  url: z.url(),
  date: z.iso.date(),
});

/** FINGERPRINTS_FILE, as `danglewatch fingerprints update` writes it: the whole catalogue, with its sources. */
export const fingerprintsFileSchema = z
  .object({
    version: z.literal(1),
    sources: z.array(sourceSchema).min(1),
    entries: z.array(entrySchema).min(1),
  })
  .refine((f) => new Set(f.entries.map((e) => e.id)).size === f.entries.length, 'entry ids must be unique');

export interface Fingerprints {
  sources: readonly CatalogueSource[];
  entries: readonly Entry[];
}

export const BUNDLED: Fingerprints = { sources: CATALOGUE_SOURCES, entries: catalogue };

/** The catalogue in `path` (FINGERPRINTS_FILE), else the bundled one. Read from disk only. */
export function loadFingerprints(path?: string): Fingerprints {
  if (!path) return BUNDLED;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${path} cannot be read as JSON (${(error as Error).message})`);
  }
  const parsed = fingerprintsFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${path} is not a fingerprints file (${issue?.path.join('.')}: ${issue?.message})`);
  }
  return parsed.data;
}
