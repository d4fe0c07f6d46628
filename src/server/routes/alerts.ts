import { Hono } from 'hono';
import { html } from 'hono/html';
import { z } from 'zod';
import { stopEmailAlerts, unsubscribeTarget } from '../../core/alerts/unsubscribe.ts';
import type { Db } from '../../db/client.ts';
import type { AppEnv } from '../env.ts';

const page = (title: string, body: ReturnType<typeof html>) => html`<!doctype html>
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex" />
      <title>${title} | DangleWatch</title>
    </head>
    <body>
      <main>
        <h1>${title}</h1>
        ${body}
        <p><a href="/">DangleWatch</a></p>
      </main>
    </body>
  </html>`;

/** What an unsubscribe link carries: the domain, the member it was mailed to (none in older links), the signature. */
const linkSchema = z.object({
  d: z.uuid(),
  u: z.string().min(1).max(128).optional(),
  s: z.string().min(1).max(128),
});

/**
 * One-click unsubscribe from e-mail alerts (RFC 8058): the signed link needs no sign-in. GET asks
 * to confirm (link scanners follow GETs), POST (the button, or the mail client's
 * List-Unsubscribe-Post) turns the alerts off: a domain's, or in a team workspace the reader's own.
 */
export function alertRoutes(db: Db) {
  const targetOf = (query: Record<string, string>) => {
    const link = linkSchema.safeParse(query);
    return link.success ? unsubscribeTarget(db, link.data.d, link.data.u, link.data.s) : undefined;
  };
  const invalid = page(
    'This link is not valid',
    html`<p>The unsubscribe link is incomplete or altered, its domain was removed, or you no longer belong to its workspace.</p>`,
  );

  return new Hono<AppEnv>()
    .get('/unsubscribe', async (c) => {
      const target = await targetOf(c.req.query());
      if (!target) return c.html(invalid, 404);
      const { domain, member } = target;
      if (member) {
        return c.html(
          page(
            `Stop the ${member.workspace} workspace's alerts to you?`,
            html`<p>You will no longer get e-mails when DangleWatch finds a change in the ${member.workspace} workspace. Its other members still get them, and you can turn yours back on in Settings → Members.</p>
              <form method="post"><button type="submit">Unsubscribe</button></form>`,
          ),
        );
      }
      return c.html(
        page(
          `Stop alerts for ${domain.domain}?`,
          html`<p>You will no longer get e-mails when DangleWatch finds a change on ${domain.domain}. Scans go on, and the dashboard still shows every finding.</p>
            <form method="post"><button type="submit">Unsubscribe</button></form>`,
        ),
      );
    })
    .post('/unsubscribe', async (c) => {
      const target = await targetOf(c.req.query());
      if (!target) return c.html(invalid, 404);
      await stopEmailAlerts(db, target);
      const { domain, member } = target;
      return c.html(
        member
          ? page(
              'Unsubscribed',
              html`<p>You will no longer receive the ${member.workspace} workspace's e-mail alerts. Its other members still do.</p>`,
            )
          : page('Unsubscribed', html`<p>You will no longer receive e-mail alerts for ${domain.domain}.</p>`),
      );
    });
}
