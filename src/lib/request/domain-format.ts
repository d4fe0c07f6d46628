/** Domain format of spec 1 §5: labels of letters, digits, hyphens; at least two; 63 each at most. */
export function isValidDomain(domain: string): boolean {
  const labels = domain.trim().toLowerCase().split('.');
  return labels.length >= 2 && labels.every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label));
}
