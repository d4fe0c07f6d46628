interface Props {
  variant: 'desktop' | 'mobile';
}

/** The header's sign-in area. Signed-out visitors get the 'Sign In' link to /login. */
export default function HeaderAuth({ variant }: Props) {
  return (
    <a
      href="/login"
      class={
        variant === 'desktop'
          ? 'rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700'
          : 'block py-2 font-semibold text-brand-600'
      }
    >
      Sign In
    </a>
  );
}
