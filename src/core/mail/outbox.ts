import { open, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** Enough of a message to hold its headers. */
const HEADER_BYTES = 16_384;

/** The addresses of a message's To header, lower-cased (folded lines unfolded). */
function recipients(head: string): string[] {
  const headers = head.split(/\r?\n\r?\n/, 1)[0]?.replace(/\r?\n[ \t]+/g, ' ') ?? '';
  const to = /^to:(.*)$/im.exec(headers)?.[1] ?? '';
  return [...to.matchAll(/[^\s<>,"]+@[^\s<>,"]+/g)].map((m) => m[0].toLowerCase());
}

/**
 * Deletes the outbox's messages to an address (the e-mails written to disk when no SMTP server is
 * set): an account's deletion takes its alert e-mails with it. Returns how many were removed.
 */
export async function deleteOutboxMail(outboxDir: string, email: string): Promise<number> {
  let names: string[];
  try {
    names = (await readdir(outboxDir)).filter((name) => name.endsWith('.eml'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  const address = email.toLowerCase();
  let removed = 0;
  for (const name of names) {
    const path = join(outboxDir, name);
    const file = await open(path, 'r');
    let head: string;
    try {
      const { buffer, bytesRead } = await file.read(Buffer.alloc(HEADER_BYTES), 0, HEADER_BYTES, 0);
      head = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await file.close();
    }
    if (recipients(head).includes(address)) {
      await unlink(path);
      removed++;
    }
  }
  return removed;
}
