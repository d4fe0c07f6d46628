import { Hono } from 'hono';
import { html } from 'hono/html';
import { domainOfUnsubscribeLink, stopEmailAlerts } from '../../core/alerts/unsubscribe.ts';
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

/**
 * One-click unsubscribe from a domain's e-mail alerts (RFC 8058): the signed link needs no sign-in.
 * GET asks to confirm (link scanners follow GETs), POST (the button, or the mail client's
 * List-Unsubscribe-Post) turns the alerts off.
 */
export function alertRoutes(db: Db) {
  const domainOf = (id: string | undefined, signature: string | undefined) =>
    domainOfUnsubscribeLink(db, id, signature);
  const invalid = page(
    'This link is not valid',
    html`<p>The unsubscribe link is incomplete, altered, or its domain was removed.</p>`,
  );

  return new Hono<AppEnv>()
    .get('/unsubscribe', async (c) => {
      const domain = await domainOf(c.req.query('d'), c.req.query('s'));
      if (!domain) return c.html(invalid, 404);
      return c.html(
        page(
          `Stop alerts for ${domain.domain}?`,
          html`<p>You will no longer get e-mails when DangleWatch finds a change on ${domain.domain}. Scans go on, and the dashboard still shows every finding.</p>
            <form method="post"><button type="submit">Unsubscribe</button></form>`,
        ),
      );
    })
    .post('/unsubscribe', async (c) => {
      const domain = await domainOf(c.req.query('d'), c.req.query('s'));
      if (!domain) return c.html(invalid, 404);
      await stopEmailAlerts(db, domain.id);
      return c.html(
        page('Unsubscribed', html`<p>You will no longer receive e-mail alerts for ${domain.domain}.</p>`),
      );
    });
}
