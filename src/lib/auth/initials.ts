/**
 * The avatar's fallback text: first letters of up to two words of the display name,
 * else the first two letters of the e-mail, else 'U'.
 */
export function initials(displayName?: string | null, email?: string | null): string {
  const words = (displayName ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) {
    return words
      .slice(0, 2)
      .map((word) => Array.from(word)[0] ?? '')
      .join('')
      .toUpperCase();
  }
  const mail = (email ?? '').trim();
  if (mail) return Array.from(mail).slice(0, 2).join('').toUpperCase();
  return 'U';
}
