// An email message as it goes out on the wire (RFC 5322 with MIME): headers, a text part and the HTML
// part, each quoted-printable. The service stores the rendered subject and HTML; this is the message
// a provider would build from them, and what `svc messages get` and svc dev's Mailpit API show.
import { emailText, type OutboxMessage } from './message-text.js';

// Web APIs, not Buffer: the console runs this in a browser.
const utf8 = new TextEncoder();
const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

export interface Mailbox {
  address: string;
  name?: string | undefined;
}

export interface EmailParts {
  /** Header name → value, in the order they are written. */
  headers: [string, string][];
  text: string;
  html: string;
  /** The whole source, CRLF line ends. */
  source: string;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** RFC 5322 date-time in UTC: `Tue, 14 Jan 2025 10:00:00 +0000`. */
export function rfc5322Date(ms: number): string {
  const d = new Date(ms);
  return `${DAYS[d.getUTCDay()]}, ${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

/** A header value as RFC 2047 words when it is not plain printable ASCII. */
function encodeWord(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  // Words of at most 45 bytes of text each (60 base64 characters), split on character boundaries.
  const words: string[] = [];
  let chunk = '';
  for (const ch of text) {
    if (utf8.encode(chunk + ch).length > 45) {
      words.push(chunk);
      chunk = '';
    }
    chunk += ch;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${base64(utf8.encode(w))}?=`).join(' ');
}

/** `"Name" <address>`, the name quoted (or encoded) as a header needs it. */
function formatMailbox(m: Mailbox): string {
  if (!m.name) return m.address;
  const name = /^[\x20-\x7e]*$/.test(m.name) ? `"${m.name.replace(/(["\\])/g, '\\$1')}"` : encodeWord(m.name);
  return `${name} <${m.address}>`;
}

/** Quoted-printable (RFC 2045) of UTF-8 text: lines of at most 76 characters, CRLF line ends. */
export function quotedPrintable(text: string): string {
  const out: string[] = [];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    let encoded = '';
    const bytes = utf8.encode(line);
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      const last = i === bytes.length - 1;
      // Printable ASCII stays, but `=`; a space or tab stays unless it ends the line.
      const plain = (b >= 33 && b <= 126 && b !== 61) || ((b === 32 || b === 9) && !last);
      encoded += plain ? String.fromCharCode(b) : `=${b.toString(16).toUpperCase().padStart(2, '0')}`;
    }
    // Soft line breaks keep each line at 76 characters at most, never splitting an =XX escape.
    while (encoded.length > 76) {
      let cut = 75;
      if (encoded[cut - 1] === '=') cut -= 1;
      else if (encoded[cut - 2] === '=') cut -= 2;
      out.push(`${encoded.slice(0, cut)}=`);
      encoded = encoded.slice(cut);
    }
    out.push(encoded);
  }
  return out.join('\r\n');
}

/** The domain of the Message-ID: the sender's, else the service's own. */
function idDomain(from: Mailbox | undefined): string {
  const at = from?.address.lastIndexOf('@') ?? -1;
  return at >= 0 ? from!.address.slice(at + 1) : 'svc.local';
}

/**
 * The email as sent: From (the integration's sender, when known), To, Subject, Date, Message-ID,
 * MIME-Version, then a multipart/alternative body with the text part first and the HTML last, as
 * mail clients prefer the last part they can show.
 */
export function emailSource(m: OutboxMessage, from?: Mailbox): EmailParts {
  const html = typeof m.content === 'string' ? m.content : '';
  const text = emailText(m);
  const id = m._id ?? 'message';
  const boundary = `svc-${id}`;
  const created = m.createdAt !== undefined ? Date.parse(m.createdAt) : Number.NaN;
  const headers: [string, string][] = [
    ...(from ? [['From', formatMailbox(from)] as [string, string]] : []),
    ...(m.email ? [['To', m.email] as [string, string]] : []),
    ['Subject', encodeWord(m.subject ?? '')],
    ...(Number.isFinite(created) ? [['Date', rfc5322Date(created)] as [string, string]] : []),
    ['Message-ID', `<${id}@${idDomain(from)}>`],
    ['MIME-Version', '1.0'],
    ['Content-Type', `multipart/alternative; boundary="${boundary}"`],
  ];
  const part = (type: string, body: string) =>
    [`--${boundary}`, `Content-Type: ${type}; charset=utf-8`, 'Content-Transfer-Encoding: quoted-printable', '', quotedPrintable(body)].join('\r\n');
  const source = [...headers.map(([k, v]) => `${k}: ${v}`), '', part('text/plain', text), part('text/html', html), `--${boundary}--`, ''].join('\r\n');
  return { headers, text, html, source };
}
