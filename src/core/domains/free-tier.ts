import { freeTierRefusal } from '../../model/free-tier.ts';
import { ServiceError } from '../errors.ts';

/** The Free plan's domain rule (src/model/free-tier.ts), refusing with its message. */
export function assertFreeTierDomain(
  user: { tier: string; email: string | null },
  emailVerified: boolean,
  domain: string,
): void {
  const refusal = freeTierRefusal({ ...user, emailVerified }, domain);
  if (refusal) throw new ServiceError('invalid', 'VALIDATION_ERROR', refusal);
}
