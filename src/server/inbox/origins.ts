// Which web pages may use svc dev's Inbox API and socket. A page on any site a developer visits could
// otherwise open a session for any subscriber and read their local notifications: only pages served
// from this machine's loopback addresses (localhost, 127.0.0.0/8, [::1], any port, http or https),
// pages of svc dev's own address when it is an IP address (its console on a LAN address), and the
// origins given with `svc dev --inbox-origin` are let in. Requests without an Origin (servers, the
// Node client, curl) are not a browser page's and pass; tokens are Bearer, never cookies, so no
// answer allows credentials.
import { isIP } from 'node:net';

/** `scheme://host[:port]` of an http(s) URL given as an allowed origin; undefined if it is not one. */
export function originOf(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  if (u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash) return undefined;
  return u.origin;
}

/** The host of an Origin header's value, when it is an http(s) origin (`null` and others: undefined). */
function hostOf(origin: string): string | undefined {
  const o = originOf(origin);
  return o === undefined || o !== origin.toLowerCase().replace(/\/$/, '') ? undefined : new URL(o).hostname;
}

function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  if (h === 'localhost' || h === '[::1]' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/** An IP literal as a Host header carries it (`127.0.0.1:2999`, `[::1]:2999`, `10.0.0.5`), not a name. */
function isAddressHost(host: string | undefined): boolean {
  if (!host) return false;
  const bare = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '');
  return isIP(bare) !== 0 || bare.toLowerCase() === 'localhost';
}

export class InboxOrigins {
  private readonly extra: Set<string>;

  /** `extra`: origins given with --inbox-origin, already checked with originOf. */
  constructor(extra: readonly string[] = []) {
    this.extra = new Set(extra.map((o) => originOf(o)).filter((o): o is string => o !== undefined));
  }

  /**
   * Whether a request with this Origin (and Host) may use the Inbox. No Origin: not a page's
   * request. The service's own origin is let in only when it is addressed by IP: by a name, it could
   * be a name pointed at this machine by someone else's DNS (the page would then be theirs).
   */
  allows(origin: string | undefined, host?: string | undefined): boolean {
    if (origin === undefined) return true;
    if (this.extra.has(origin.toLowerCase().replace(/\/$/, ''))) return true;
    const h = hostOf(origin);
    if (h === undefined) return false;
    if (isLoopbackHost(h)) return true;
    return host !== undefined && isAddressHost(host) && new URL(origin).host === host.toLowerCase();
  }
}
