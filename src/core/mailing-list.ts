import type { Db } from '../db/client.ts';
import { mailingListSignups } from '../db/schema.ts';
import type { MailingSignup } from '../model/mailing.ts';
import { ServiceError } from './errors.ts';

/** Puts an address on the mailing list; an address already there is a conflict. */
export async function subscribe(db: Db, signup: MailingSignup): Promise<void> {
  const inserted = await db
    .insert(mailingListSignups)
    .values({
      email: signup.email,
      source: signup.source,
      clientTimestamp: signup.timestamp ? new Date(signup.timestamp) : null,
    })
    .onConflictDoNothing()
    .returning({ id: mailingListSignups.id });
  if (inserted.length === 0) {
    throw new ServiceError('conflict', 'ALREADY_SUBSCRIBED', 'This e-mail address is already on the list');
  }
}
