// How a receiver checks a DangleWatch webhook (docs/webhooks.md). Node 18+, no dependencies.
// `signatureHeader` is the X-DangleWatch-Signature header, `rawBody` the request body exactly as
// received (a string or Buffer), `secret` the webhook's secret from DangleWatch's settings.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function verifyDangleWatchSignature(signatureHeader, rawBody, secret, toleranceSeconds = 300) {
  const parts = Object.fromEntries(
    String(signatureHeader)
      .split(',')
      .map((part) => part.trim().split('=')),
  );
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || !parts.v1) return false;
  // A replayed old delivery is refused.
  if (Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length / 2 && timingSafeEqual(given, Buffer.from(expected, 'hex'));
}
