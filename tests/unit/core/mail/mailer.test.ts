import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createMailer } from '../../../../src/core/mail/mailer.ts';

describe('the mailer without SMTP_URL', () => {
  it('writes each message to DATA_DIR/outbox as an .eml file, with both parts and the headers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dw-outbox-'));
    try {
      const outbox = join(dir, 'outbox');
      const mailer = createMailer({
        from: 'DangleWatch <alerts@example.net>',
        outboxDir: outbox,
        logger: pino({ level: 'silent' }),
      });
      await mailer.send({
        to: 'owner@acme.com',
        subject: 'DangleWatch: 1 new dangling record on acme.com',
        text: 'plain part',
        html: '<p>html part</p>',
        headers: { 'List-Unsubscribe': '<https://x.example/alerts/unsubscribe?d=1&s=2>' },
      });
      const files = await readdir(outbox);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const eml = await readFile(join(outbox, files[0] as string), 'utf8');
      expect(eml).toContain('To: owner@acme.com');
      expect(eml).toContain('Subject: DangleWatch: 1 new dangling record on acme.com');
      expect(eml).toContain('List-Unsubscribe: <https://x.example/alerts/unsubscribe?d=1&s=2>');
      expect(eml).toContain('plain part');
      expect(eml).toContain('<p>html part</p>');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
