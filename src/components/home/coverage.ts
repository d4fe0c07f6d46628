import { catalogue } from '../../scanner/fingerprints/catalogue.ts';

/**
 * How many platforms the catalogue knows to be open to takeover, as marketing copy says it ("100+"):
 * read from the engine's data at build time, so the pages never claim more or less than it checks.
 */
const vulnerable = catalogue.filter((entry) => entry.status === 'vulnerable').length;
export const TAKEOVER_PLATFORMS = `${Math.floor(vulnerable / 10) * 10}+`;
