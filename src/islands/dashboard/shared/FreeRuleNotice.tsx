import { WEBMAIL_ON_FREE_LEADS } from '../../../model/free-tier.ts';
import { WebmailNotice } from '../domains/WebmailNotice.tsx';
import { useWebmailOnFree } from './use-webmail-on-free.ts';

/** Where the Plan tab is, to upgrade from any screen. */
const PLAN_HREF = '/dashboard?section=settings&tab=plan';

type Screen = keyof typeof WEBMAIL_ON_FREE_LEADS;

/** The notice itself: what the screen would do (WEBMAIL_ON_FREE_LEADS), then the Free rule and the two ways on. */
export function FreeRuleNoticeView({
  screen,
  email,
  onSignInAgain,
}: {
  screen: Screen;
  email: string | null;
  onSignInAgain: () => void;
}) {
  return (
    <div className="space-y-3 text-left text-sm" data-testid={`free-rule-${screen}`}>
      <p className="text-slate-700">{WEBMAIL_ON_FREE_LEADS[screen]}</p>
      <WebmailNotice email={email} upgradeHref={PLAN_HREF} onSignInAgain={onSignInAgain} />
    </div>
  );
}

/**
 * The Free rule on a screen a webmail account on Free reaches first; nothing where the rule leaves
 * the workspace a domain (a company address, another plan, a server without billing).
 */
export function FreeRuleNotice({ screen }: { screen: Screen }) {
  const webmail = useWebmailOnFree();
  if (!webmail.applies) return null;
  return <FreeRuleNoticeView screen={screen} email={webmail.email} onSignInAgain={webmail.signInAgain} />;
}
