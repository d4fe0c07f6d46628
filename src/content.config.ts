import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

/** The five legal pages; the file name is the route (privacy-policy.mdx → /privacy-policy). */
const legal = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './src/content/legal' }),
  schema: z.object({
    title: z.string().min(1),
    description: z.string().min(50).max(170),
    /** The date the text was first written; later changes are dated in src/content/legal-revisions.ts. */
    updated: z.coerce.date(),
    /** Position in the footer and the legal index. */
    order: z.number().int(),
  }),
});

/** Long editorial text that pages compose with their own sections. */
const editorial = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './src/content/editorial' }),
  schema: z.object({
    title: z.string().min(1),
    description: z.string().min(50).max(170),
  }),
});

export const collections = { legal, editorial };
