import { useState } from 'react';
import { initials } from '../../lib/auth/initials.ts';

interface Props {
  photoURL?: string | null;
  displayName?: string | null;
  email?: string | null;
  size?: 'sm' | 'md' | 'lg';
}

const SIZES = { sm: 'h-8 w-8 text-xs', md: 'h-10 w-10 text-sm', lg: 'h-16 w-16 text-xl' };

/** The user's photo, else their initials. A photo that fails to load falls back too. */
export function Avatar({ photoURL, displayName, email, size = 'sm' }: Props) {
  const [broken, setBroken] = useState(false);
  const box = `${SIZES[size]} inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full`;
  if (photoURL && !broken) {
    return (
      <img
        src={photoURL}
        alt=""
        className={`${box} object-cover`}
        referrerPolicy="no-referrer"
        onError={() => setBroken(true)}
      />
    );
  }
  return (
    <span
      className={`${box} bg-brand-600 font-semibold text-white`}
      aria-hidden="true"
      data-testid="avatar-initials"
    >
      {initials(displayName, email)}
    </span>
  );
}
