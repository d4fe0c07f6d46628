/** Text made safe to put into an e-mail's HTML part. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
