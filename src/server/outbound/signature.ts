// The one signature of everything svc dev sends out: `t=<ms>,v1=<hex HMAC-SHA256(secret, "<t>.<text>")>`,
// over the very text sent. Webhooks carry it as `svc-signature`; a bridge as `novu-signature` and
// `x-novu-signature` (the names the framework reads). Receivers check `t` against their own clock, so
// it is wall-clock time, whatever service time says.
import { createHmac } from 'node:crypto';

/** The header value for `text` signed with `secret` at `t` (ms since the epoch). */
export function signature(secret: string, text: string, t: number): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${text}`).digest('hex')}`;
}
