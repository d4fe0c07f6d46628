interface Props {
  /** Width and height in pixels. */
  size: number;
}

/** The cross on a close or dismiss button; the button carries the accessible name. */
export function CloseIcon({ size }: Props) {
  return (
    <svg
      viewBox="0 0 20 20"
      width={size}
      height={size}
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path d="M5 5l10 10M15 5L5 15" />
    </svg>
  );
}
