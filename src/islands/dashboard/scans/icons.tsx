/** Small line icons; decorative, so hidden from screen readers (the text beside them says it). */
const common = {
  viewBox: '0 0 20 20',
  width: 16,
  height: 16,
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
} as const;

export function ClockIcon() {
  return (
    <svg aria-hidden="true" {...common} data-testid="clock-icon">
      <circle cx="10" cy="10" r="7.5" />
      <path d="M10 5.5V10l3 2" />
    </svg>
  );
}

export function DownloadIcon() {
  return (
    <svg aria-hidden="true" {...common}>
      <path d="M10 3v10m-4-4 4 4 4-4M4 16h12" />
    </svg>
  );
}
