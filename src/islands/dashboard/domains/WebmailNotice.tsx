import { FREE_DOMAIN_RULE } from '../../../model/free-tier.ts';
import { formatPrice, getPlan } from '../../../model/plans.ts';
import { BUTTON } from '../shared/buttons.ts';

interface WebmailNoticeProps {
  /** The webmail address the account signed in with. */
  email: string | null;
  /** Where the plan of the workspace open now is bought. */
  upgradeHref: string;
  onSignInAgain: () => void;
}

/**
 * The add-domain dialog of a Free account that signed in with webmail: Free covers only the
 * domain of a work e-mail, so there is nothing to type; it says why, and the two ways on.
 */
export function WebmailNotice({ email, upgradeHref, onSignInAgain }: WebmailNoticeProps) {
  const free = getPlan('free');
  const intro = getPlan('intro');
  return (
    <div className="space-y-4 text-sm text-slate-700" data-testid="webmail-notice">
      <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-amber-900">
        The {free.name} plan covers {FREE_DOMAIN_RULE}. You signed in with{' '}
        <span className="font-semibold">{email ?? 'an address'}</span>, a webmail address, so there is no
        company domain for {free.name} to cover.
      </p>
      <div className="rounded-md border border-slate-200 p-3">
        <p>
          <span className="font-semibold text-ink">
            {intro.name}, {formatPrice(intro.priceCents)}/month:
          </span>{' '}
          {intro.limits.domains} domains, any domain you prove you own.
        </p>
        <a href={upgradeHref} className={`${BUTTON.primary} mt-2`}>
          Upgrade to {intro.name}
        </a>
      </div>
      <div className="rounded-md border border-slate-200 p-3">
        <p>Or sign in with your work e-mail, and {free.name} covers its domain.</p>
        <button type="button" className={`${BUTTON.secondary} mt-2`} onClick={onSignInAgain}>
          Sign in with your work e-mail
        </button>
      </div>
    </div>
  );
}
