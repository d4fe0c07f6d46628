export type HeaderVariant = 'desktop' | 'mobile';

export const DESKTOP_BUTTON =
  'rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700';
export const MOBILE_LINK = 'block py-2 font-semibold text-brand-600';
