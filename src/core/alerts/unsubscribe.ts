import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { domains } from '../../db/schema.ts';
import { appSecret } from '../mail/secrets.ts';
import { UNSUBSCRIBE_SECRET, verifyUnsubscribe } from './unsubscribe-link.ts';

type DomainRow = typeof domains.$inferSelect;

/** The domain a signed unsubscribe link names; undefined when the link is incomplete, altered or its domain gone. */
export async function domainOfUnsubscribeLink(
  db: Db,
  id: string | undefined,
  signature: string | undefined,
): Promise<DomainRow | undefined> {
  if (!id || !signature || !/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  if (!verifyUnsubscribe(await appSecret(db, UNSUBSCRIBE_SECRET), id, signature)) return undefined;
  const [row] = await db.select().from(domains).where(eq(domains.id, id));
  return row;
}

/** Turns the domain's e-mail alerts off; scans and the dashboard go on. */
export async function stopEmailAlerts(db: Db, domainId: string): Promise<void> {
  await db.update(domains).set({ alertsEmail: false }).where(eq(domains.id, domainId));
}
