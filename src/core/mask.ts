// Masking of secrets and personal data. Output masks secrets the service returns (access tokens,
// integration credentials) unless --show-secrets; the --debug trace and --dry-run additionally mask the
// Authorization header and personal data (emails, phone numbers, device tokens, webhook URLs).

/** `sk_test_4f9a…a1b2` → `sk_…a1b2`: a recognisable prefix and the last four characters. */
export function maskKey(key: string): string {
  if (key.includes('…') || key === '••••') return key; // already masked
  if (key.length < 12) return '••••';
  const prefix = /^[A-Za-z]{1,4}[_-]/.exec(key)?.[0] ?? key.slice(0, 2);
  return `${prefix}…${key.slice(-4)}`;
}

/** Keys whose values are secrets wherever they appear. */
const SECRET_KEYS = new Set([
  'accesstoken',
  'apikey',
  'secretkey',
  'password',
  'token',
  'apitoken',
  'signingsecret',
  'inboundwebhooksigningkey',
  'authorization',
  'refreshtoken',
  'clientsecret',
  'serviceaccount',
  'accesskey',
  'authenticationtokenkey',
  'secret',
]);
/** Objects whose every value is secret. */
const SECRET_OBJECTS = new Set(['credentials', 'auth']);
/** Personal data: masked in traces only. */
const PERSONAL_KEYS = new Set(['email', 'emails', 'phone', 'phonenumber', 'devicetokens', 'webhookurl', 'directwebhookurl', 'to']);

interface MaskOptions {
  /** Also mask personal data (traces). */
  personal?: boolean;
  /** Exact secret strings to scrub wherever they appear (the API key in use). */
  knownSecrets?: string[];
}

function maskValue(v: unknown): unknown {
  if (typeof v === 'string') return v.length ? maskKey(v) : v;
  if (Array.isArray(v)) return v.map(maskValue);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskValue(x)]));
  }
  return v;
}

function maskPersonal(v: unknown): unknown {
  if (typeof v === 'string') return v.includes('@') ? maskEmail(v) : v.length ? '•••' : v;
  if (Array.isArray(v)) return v.map(maskPersonal);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskPersonal(x)]));
  return v;
}

function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '•••';
  return `${email[0]}•••@${email.slice(at + 1)}`;
}

function scrub(s: string, secrets: string[] | undefined): string {
  if (!secrets) return s;
  let out = s;
  for (const secret of secrets) if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join(maskKey(secret));
  return out;
}

/**
 * A deep copy with secrets masked. Structure and every non-secret value are kept, so the output is
 * still the service's record.
 */
export function maskData(data: unknown, opts: MaskOptions = {}, parentKey = ''): unknown {
  if (typeof data === 'string') return scrub(data, opts.knownSecrets);
  if (Array.isArray(data)) return data.map((x) => maskData(x, opts, parentKey));
  if (!data || typeof data !== 'object') return data;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data as Record<string, unknown>)) {
    const lk = k.toLowerCase();
    if (SECRET_OBJECTS.has(lk) && v && typeof v === 'object') out[k] = maskValue(v);
    else if ((SECRET_KEYS.has(lk) || (lk === 'key' && parentKey === 'apikeys')) && (typeof v === 'string' || Array.isArray(v))) out[k] = maskValue(v);
    else if (opts.personal && (PERSONAL_KEYS.has(lk) || (lk === 'url' && parentKey === 'endpoint'))) {
      // `to` holds recipients: only their contact fields are personal, the ids stay readable.
      out[k] = lk === 'to' ? maskData(v, opts, k) : maskPersonal(v);
    } else out[k] = maskData(v, opts, lk);
  }
  return out;
}

/**
 * The secret strings of a value: what maskData would hide by key (tokens, credentials). A request's
 * secrets are scrubbed from its answer too, because services quote the offending value back in
 * validation errors.
 */
export function secretValues(data: unknown, under = false): string[] {
  if (typeof data === 'string') return under && data.length ? [data] : [];
  if (Array.isArray(data)) return data.flatMap((x) => secretValues(x, under));
  if (!data || typeof data !== 'object') return [];
  return Object.entries(data as Record<string, unknown>).flatMap(([k, v]) => {
    const lk = k.toLowerCase();
    return secretValues(v, under || SECRET_KEYS.has(lk) || (SECRET_OBJECTS.has(lk) && typeof v === 'object'));
  });
}

/** Headers for a trace: the Authorization value masked, everything else kept. */
export function maskHeaders(headers: Record<string, string | string[] | undefined>, opts: MaskOptions = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const s = Array.isArray(v) ? v.join(', ') : v;
    if (k.toLowerCase() === 'authorization') {
      const [scheme, ...rest] = s.split(' ');
      const cred = rest.join(' ');
      out[k] = cred ? `${scheme} ${maskKey(cred)}` : s;
    } else if (k.toLowerCase() === 'cookie' || k.toLowerCase() === 'set-cookie') out[k] = '•••';
    else out[k] = scrub(s, opts.knownSecrets);
  }
  return out;
}

// The user info runs to the last `@` before the path, as URL parsers read it (a password may hold `@`
// or a space); in running text, to the last `@` before a space or a quote.
const URL_USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i;
const URL_USERINFO_IN_TEXT = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#"'<>`]*)@/gi;

const maskInfo = (scheme: string, info: string) => {
  const colon = info.indexOf(':');
  return `${scheme}${colon >= 0 ? `${info.slice(0, colon)}:•••` : '•••'}@`;
};

/**
 * A URL as shown (profiles, --dry-run, --debug): a password in it masked, and a user name without a
 * password too (`https://TOKEN@host` carries a secret there).
 */
export function hideUrlCredentials(url: string): string {
  return url.replace(URL_USERINFO, (_, scheme: string, info: string) => maskInfo(scheme, info));
}

/** The same for every URL inside a message (errors and notes on stderr, whoever wrote them). */
export function hideUrlCredentialsIn(text: string): string {
  return text.includes('@') ? text.replace(URL_USERINFO_IN_TEXT, (_, scheme: string, info: string) => maskInfo(scheme, info)) : text;
}

const PERSONAL_QUERY = new Set(['email', 'emails', 'phone']);

/** A URL for a trace: personal query values masked. */
export function maskUrl(url: string, opts: MaskOptions = {}): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return hideUrlCredentials(scrub(url, opts.knownSecrets));
  }
  if (opts.personal) {
    for (const key of [...new Set(u.searchParams.keys())]) {
      if (!PERSONAL_QUERY.has(key.toLowerCase())) continue;
      const values = u.searchParams.getAll(key);
      u.searchParams.delete(key);
      for (const v of values) u.searchParams.append(key, v.includes('@') ? maskEmail(v) : '•••');
    }
  }
  return hideUrlCredentials(scrub(u.toString(), opts.knownSecrets));
}

/** The key names (lower-case) under which maskData may change a value: a reader that copies answers as bytes (io/raw-json.ts) leaves those records to maskData. */
export const maskedKeyNames: ReadonlySet<string> = new Set([...SECRET_KEYS, ...SECRET_OBJECTS]);
