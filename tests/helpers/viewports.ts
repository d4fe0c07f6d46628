/** The two widths every dashboard screen is held to: a phone's and a laptop's. */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** Each width with its name, the phone's first. */
export const WIDTHS = [
  ['390 px', PHONE],
  ['1280 px', DESKTOP],
] as const;
