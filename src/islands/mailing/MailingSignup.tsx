import { type SubmitEvent, useEffect, useState } from 'react';
import { submitMailingSignup } from '../../lib/mailing-client.ts';
import { IslandErrorBoundary } from '../ui/IslandErrorBoundary.tsx';
import { Toaster } from '../ui/Toaster.tsx';

interface Props {
  /** Tag sent with the sign-up so we know which page it came from, e.g. 'trust-security'. */
  source: string;
  /** Colours for a dark section (the home page's call to action) or a light one. */
  tone?: 'light' | 'dark';
}

function MailingForm({ source, tone = 'light' }: Props) {
  const [email, setEmail] = useState('');
  const [submitting, setSubmitting] = useState(false);
  // Without JavaScript the form cannot post JSON, so the button stays disabled until hydration.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const inputId = `mailing-email-${source}`;
  const hintId = `${inputId}-hint`;
  const dark = tone === 'dark';

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    try {
      if (await submitMailingSignup(email, source)) setEmail('');
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="w-full max-w-md" aria-busy={submitting}>
      <label htmlFor={inputId} className={`block text-sm font-semibold ${dark ? 'text-white' : 'text-ink'}`}>
        Email address
      </label>
      <div className="mt-2 flex flex-col gap-3 sm:flex-row">
        <input
          id={inputId}
          name="email"
          type="email"
          required
          autoComplete="email"
          placeholder="you@yourstartup.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-describedby={hintId}
          className="min-w-0 flex-1 rounded-md border border-slate-400 bg-white px-3 py-2.5 text-ink placeholder:text-slate-500 focus:border-brand-600 focus:outline-2 focus:outline-brand-500"
        />
        <button
          type="submit"
          disabled={!ready || submitting}
          className={`rounded-md px-5 py-2.5 font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-70 ${
            dark
              ? 'bg-white text-brand-700 hover:bg-brand-50 focus-visible:outline-white'
              : 'bg-brand-600 text-white hover:bg-brand-700 focus-visible:outline-brand-600'
          }`}
        >
          {submitting ? 'Getting Started...' : 'Get Started'}
        </button>
      </div>
      <p id={hintId} className={`mt-2 text-sm ${dark ? 'text-brand-50' : 'text-slate-600'}`}>
        We use it only to tell you when DangleWatch launches.
      </p>
    </form>
  );
}

/** The mailing-list sign-up form. */
export default function MailingSignup(props: Props) {
  return (
    <IslandErrorBoundary>
      <MailingForm {...props} />
      <Toaster />
    </IslandErrorBoundary>
  );
}
