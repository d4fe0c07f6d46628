import type { InvitationPreview } from '../../model/workspaces.ts';
import { apiBase } from '../request/api.ts';

/** The invitation token of a return path that is an invitation's link (/invitations/accept?token=…), else null. */
export function invitationToken(path: string): string | null {
  const url = new URL(path, 'https://return.invalid');
  if (url.pathname !== '/invitations/accept') return null;
  return url.searchParams.get('token') || null;
}

/**
 * Who invited the visitor to which workspace, for the sign-in page their invitation's link led to;
 * null when the link names no invitation waiting (the accept page says why after sign-in) or the
 * server cannot be asked: the page then reads as any sign-in.
 */
export async function fetchInvitationPreview(
  token: string,
  doFetch: typeof fetch = fetch,
): Promise<InvitationPreview | null> {
  try {
    const response = await doFetch(`${apiBase()}/api/invitations/preview`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    if (!response.ok) return null;
    const { invitation } = (await response.json()) as { invitation: InvitationPreview };
    return invitation;
  } catch {
    return null;
  }
}
