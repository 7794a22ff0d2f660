// Checks a signature svc dev sent (`t=<ms>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`) as a
// receiver would: over the raw body received, and within a tolerance of the receiver's own clock. Only
// tests receive what svc dev sends, so the check lives here; `now` is required, so no caller can skip
// the timestamp's age by leaving it out.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: string };

export function verifySignature(
  secret: string,
  header: string | null | undefined,
  rawBody: string,
  options: { now: number; toleranceMs?: number },
): SignatureCheck {
  if (!header) return { ok: false, reason: 'missing signature header' };
  const parts = Object.fromEntries(
    header.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
  const timestamp = Number(parts.t);
  if (!Number.isFinite(timestamp) || !parts.v1) return { ok: false, reason: 'malformed signature header, expected t=<ms>,v1=<hex>' };
  if (Math.abs(options.now - timestamp) > (options.toleranceMs ?? 5 * 60_000)) return { ok: false, reason: 'signature timestamp outside the tolerance' };
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest();
  const given = Buffer.from(String(parts.v1), 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'signature mismatch' };
  return { ok: true, timestamp };
}
