// Who svc dev may call: loopback targets only, unless the one who started it allowed others with a
// flag (`--allow-remote-webhooks`, `--allow-remote-bridge`). A local service that anyone can point at
// arbitrary hosts would be a tool to reach a developer's network from a URL typed into a workflow.
// Two checks: the URL's own host when it is an address (no lookup needed), and, for a name, every
// address the name resolves to at the moment the connection is made (so a name cannot resolve to
// loopback when checked and elsewhere when dialled).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

/** 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  if (isIP(a) === 4) return a.startsWith('127.');
  if (isIP(a) === 6) return a === '::1' || a === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(a);
  return false;
}

/** Why a target was refused, in words that say how to allow it. */
function notLoopback(host: string, addresses: readonly string[], allowFlag: string): string {
  const where = addresses.length > 0 && !(addresses.length === 1 && addresses[0] === host) ? ` (${addresses.join(', ')})` : '';
  return `refusing to connect to ${host}${where}: only loopback targets (127.0.0.0/8, ::1, localhost) are allowed; start svc dev with ${allowFlag} to allow others`;
}

/** The code of the error a refused connection ends with. */
export const REFUSED = 'ESVCNOTLOOPBACK';

type Target = { ok: true; url: URL } | { ok: false; error: string; refused?: true };

/**
 * What can be said of a URL without a lookup: an http(s) URL, and, when its host is an address, a
 * loopback one unless others are allowed. A host name is checked when it is dialled (guardedLookup).
 */
export function checkUrl(url: string, allowRemote: boolean, allowFlag: string): Target {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, error: `invalid URL ${JSON.stringify(url)}` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return { ok: false, error: `unsupported URL scheme "${parsed.protocol}", use http or https` };
  if (parsed.hostname === '') return { ok: false, error: `invalid URL ${JSON.stringify(url)}: no host` };
  if (allowRemote) return { ok: true, url: parsed };
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !isLoopbackAddress(host)) return { ok: false, error: notLoopback(host, [host], allowFlag), refused: true };
  return { ok: true, url: parsed };
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });
}

/**
 * The whole check, a lookup included: whether `url` may be called now. For callers that want the
 * answer before sending (and for tests); `send` checks names at connect time instead.
 */
export async function checkTarget(url: string, allowRemote: boolean, allowFlag = '--allow-remote-webhooks'): Promise<Target> {
  const first = checkUrl(url, allowRemote, allowFlag);
  if (!first.ok || allowRemote) return first;
  const host = first.url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return first;
  try {
    const addresses = (await resolveAll(host)).map((a) => a.address);
    if (addresses.length === 0 || addresses.some((a) => !isLoopbackAddress(a)))
      return { ok: false, error: notLoopback(host, addresses, allowFlag), refused: true };
    return first;
  } catch (err) {
    return { ok: false, error: `cannot resolve ${host}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The lookup of connections to loopback targets: a name resolving to any other address fails. */
export function guardedLookup(allowFlag: string) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, options as { all: true }, (err, address: string | LookupAddress[], family?: number) => {
      if (err) return callback(err, address);
      const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
      if (list.length === 0 || list.some((a) => !isLoopbackAddress(a))) {
        return callback(Object.assign(new Error(notLoopback(hostname, list, allowFlag)), { code: REFUSED }), address);
      }
      return callback(null, address, family);
    });
  };
}
