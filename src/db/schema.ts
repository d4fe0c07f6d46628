import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const mailingListSignups = pgTable(
  'mailing_list_signups',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    source: text('source').notNull(),
    clientTimestamp: timestamp('client_timestamp', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Unique by e-mail regardless of case: the index is on lower(email).
  (t) => [uniqueIndex('mailing_list_signups_email_lower').on(sql`lower(${t.email})`)],
);

/**
 * Fixed-window rate-limit counters. Kept in the database, not in memory, so that several API
 * processes agree on how many requests a client has made.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_reset_at').on(t.resetAt)],
);
