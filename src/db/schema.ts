import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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

/**
 * Signed-in users, keyed by their Firebase uid. Created or refreshed by POST /auth/verify from the
 * verified ID token; the tier decides the plan limits (src/lib/plans.ts).
 */
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email'),
  displayName: text('display_name'),
  photoUrl: text('photo_url'),
  /** 'google' or 'github'. */
  provider: text('provider').notNull(),
  tier: text('tier').notNull().default('free'),
  /** The user's primary domain (POST /auth/domain); null until set. */
  domain: text('domain'),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastLoginAt: timestamp('last_login_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Scans a user started. Minimal for now (the quota counts them); the dashboard work extends it
 * with results and findings.
 */
export const scans = pgTable(
  'scans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    /** pending, running, completed or failed. */
    status: text('status').notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('scans_user_created').on(t.userId, t.createdAt)],
);
