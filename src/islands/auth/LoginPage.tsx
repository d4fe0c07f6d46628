import { useEffect, useState } from 'react';
import { fetchInvitationPreview, invitationToken } from '../../lib/auth/invitation-preview.ts';
import { defaultSignInFailure, type Provider } from '../../lib/auth/messages.ts';
import { returnPath } from '../../lib/auth/safe-path.ts';
import { takeAuthMessage } from '../../lib/auth/session-cache.ts';
import { FREE_DOMAIN_SENTENCE } from '../../model/free-tier.ts';
import { getPlan } from '../../model/plans.ts';
import { type InvitationPreview, WORKSPACE_MESSAGES } from '../../model/workspaces.ts';
import { IslandErrorBoundary } from '../ui/IslandErrorBoundary.tsx';
import { AuthProvider, useAuth } from './auth-context.tsx';

export default function LoginPage() {
  return (
    <IslandErrorBoundary>
      <AuthProvider eager>
        <Login />
      </AuthProvider>
    </IslandErrorBoundary>
  );
}

function ConfigBanner({ status, error }: { status: string; error: string | null }) {
  if (status === 'checking') {
    return (
      <div
        role="status"
        className="rounded-md border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700"
      >
        Checking authentication configuration...
      </div>
    );
  }
  if (status === 'not-configured') {
    return (
      <div
        role="status"
        className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
      >
        <p className="font-semibold">Authentication Setup in Progress</p>
        <p className="mt-1">
          Our Google and GitHub sign-in providers are being configured. This usually takes 5-10 minutes. If it
          lasts longer, please contact support.
        </p>
      </div>
    );
  }
  if (status === 'error') {
    return (
      <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
        <p className="font-semibold">Authentication Configuration Issue</p>
        <p className="mt-1">{error}</p>
      </div>
    );
  }
  return null;
}

/** The page's heading: an invitation's, when its link led here, else the welcome. */
export function InvitationHeading({ invitation }: { invitation: InvitationPreview | null }) {
  if (!invitation) {
    return (
      <>
        <h1 className="text-center text-3xl font-bold text-ink">Welcome to DangleWatch</h1>
        <p className="text-center text-slate-600">
          Sign in to monitor your domains for dangling DNS records.
        </p>
      </>
    );
  }
  return (
    <>
      <h1 className="text-center text-3xl font-bold text-ink">Join {invitation.workspace}</h1>
      <p className="text-center text-slate-700" data-testid="invitation-preview">
        {WORKSPACE_MESSAGES.invitationPreview(invitation)}
      </p>
    </>
  );
}

const BUTTON =
  'flex w-full items-center justify-center gap-3 rounded-md border px-4 py-3 text-sm font-semibold disabled:cursor-not-allowed disabled:opacity-60';

function Login() {
  const auth = useAuth();
  const [pending, setPending] = useState<Provider | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const [invitation, setInvitation] = useState<InvitationPreview | null>(null);

  useEffect(() => setNotice(takeAuthMessage()), []);
  // Come from an invitation's link: say who asks them to join what before they sign in.
  useEffect(() => {
    const token = invitationToken(returnPath(window.location.search, window.location.origin));
    if (token) void fetchInvitationPreview(token).then(setInvitation);
  }, []);

  // A visitor who is already signed in (or has just signed in here) goes on to where they wanted to be.
  const signedIn =
    auth.user !== null && (auth.userProfile !== null || auth.profileError !== null) && !auth.loading;
  useEffect(() => {
    if (signedIn) window.location.replace(returnPath(window.location.search, window.location.origin));
  }, [signedIn]);

  const signIn = async (provider: Provider) => {
    setError(null);
    setNotice(null);
    setPending(provider);
    try {
      await auth.signIn(provider);
    } catch (caught) {
      setError((caught instanceof Error && caught.message) || defaultSignInFailure(provider));
    } finally {
      setPending(null);
    }
  };

  const free = getPlan('free');
  const busy = pending !== null;

  return (
    <div className="space-y-6">
      <InvitationHeading invitation={invitation} />
      <ConfigBanner status={auth.configStatus} error={auth.configError} />
      {notice && (
        <div
          role="status"
          className="rounded-md border border-blue-200 bg-blue-50 px-4 py-3 text-sm text-blue-900"
        >
          {notice}
        </div>
      )}
      {error && (
        <div
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
        >
          {error}
        </div>
      )}
      <div className="space-y-3">
        <button
          type="button"
          className={`${BUTTON} border-slate-300 bg-white text-slate-800 hover:bg-slate-50`}
          disabled={busy}
          onClick={() => signIn('google')}
        >
          {pending === 'google' ? 'Signing in...' : 'Continue with Google'}
        </button>
        <button
          type="button"
          className={`${BUTTON} border-slate-900 bg-slate-900 text-white hover:bg-slate-800`}
          disabled={busy}
          onClick={() => signIn('github')}
        >
          {pending === 'github' ? 'Signing in...' : 'Continue with GitHub'}
        </button>
      </div>
      <div className="flex items-center gap-3 text-xs font-medium uppercase tracking-wide text-slate-500">
        <span className="h-px flex-1 bg-slate-200" />
        Secure OAuth Only
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <div className="rounded-md border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-900">
        <p className="font-semibold">The free tier includes</p>
        <ul className="mt-1 list-inside list-disc">
          {free.features.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
          <li>No credit card required</li>
        </ul>
        <p className="mt-2" data-testid="free-domain-rule">
          {FREE_DOMAIN_SENTENCE} Sign in with your work e-mail to use it.
        </p>
      </div>
      <p className="text-sm text-slate-600">
        Session protection: for your security, sessions expire 24 hours after you sign in.
      </p>
      <p className="text-center text-xs text-slate-500">
        By continuing you agree to our{' '}
        <a href="/terms-of-service" className="underline">
          Terms of Service
        </a>{' '}
        and{' '}
        <a href="/privacy-policy" className="underline">
          Privacy Policy
        </a>
        .
      </p>
    </div>
  );
}
