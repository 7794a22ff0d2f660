// The checks a person would otherwise do by hand on a delivered message, as lines that say what
// exceeded what: an email's size against the point where Gmail clips it, its links and images; an
// SMS's encoding and segments; a push's payload against the APNs and FCM limits. One pure module, so
// `svc messages get` and the console's Messages page say the same thing.
import { emailSource, type Mailbox } from './email-source.js';
import { bodyOf, htmlImages, type Image, type Link, messageLinks, type OutboxMessage } from './message-text.js';

/** Gmail shows "[Message clipped]" and hides the rest of an email whose HTML is larger than this. */
export const GMAIL_CLIP_BYTES = 102 * 1024;
/** The largest payload APNs accepts for a remote notification (other than VoIP). */
export const APNS_MAX_BYTES = 4096;
/** The largest message payload FCM accepts (notification and data messages alike). */
const FCM_MAX_BYTES = 4096;

type Level = 'ok' | 'warning' | 'problem';
export interface Check {
  level: Level;
  /** What was checked: `size`, `links`, `images`, `encoding`, `segments`, `apns`, `fcm`... */
  check: string;
  text: string;
}

interface SmsInfo {
  text: string;
  encoding: 'GSM-7' | 'UCS-2';
  /** Characters as a reader counts them. */
  characters: number;
  /** Septets (GSM-7, the extension characters taking two) or UTF-16 code units (UCS-2). */
  units: number;
  segments: number;
  /** Units that fit in one message, and in each part of a longer one. */
  single: number;
  perSegment: number;
  /** The characters that are not in the GSM-7 alphabet (why UCS-2), each once. */
  outsideGsm: string[];
}

interface PushInfo {
  title: string;
  body: string;
  data: Record<string, unknown>;
  apnsBytes: number;
  fcmBytes: number;
}

interface EmailInfo {
  headers: Record<string, string>;
  text: string;
  htmlBytes: number;
  links: Link[];
  images: Image[];
}

export interface Inspection {
  channel: string;
  checks: Check[];
  email?: EmailInfo;
  sms?: SmsInfo;
  push?: PushInfo;
  links?: Link[];
}

const GSM_BASIC = new Set('@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà');
/** The extension table: each is sent as an escape and the character, two septets. */
const GSM_EXTENDED = new Set('^{}\\[~]|€\f');

const utf8 = new TextEncoder();
/** UTF-8 bytes, with web APIs: the console runs this in a browser. */
const byteLength = (text: string) => utf8.encode(text).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0).replace(/\.0$/, '')} KB`;
const n = (x: number) => x.toLocaleString('en-US');
const codePoint = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** An SMS's encoding and segments, as a carrier counts them (GSM 03.38; UCS-2 for anything else). */
export function smsInfo(text: string): SmsInfo {
  const outside: string[] = [];
  let septets = 0;
  for (const ch of text) {
    if (GSM_BASIC.has(ch)) septets += 1;
    else if (GSM_EXTENDED.has(ch)) septets += 2;
    else if (!outside.includes(ch)) outside.push(ch);
  }
  const characters = [...text].length;
  if (outside.length === 0) {
    const segments = septets === 0 ? 0 : septets <= 160 ? 1 : Math.ceil(septets / 153);
    return { text, encoding: 'GSM-7', characters, units: septets, segments, single: 160, perSegment: 153, outsideGsm: [] };
  }
  // UCS-2 as phones send it: UTF-16 code units, an emoji taking two.
  const units = text.length;
  return { text, encoding: 'UCS-2', characters, units, segments: units <= 70 ? 1 : Math.ceil(units / 67), single: 70, perSegment: 67, outsideGsm: outside };
}

function smsChecks(s: SmsInfo): Check[] {
  const unit = s.encoding === 'GSM-7' ? 'septets' : 'UTF-16 units';
  const why =
    s.encoding === 'UCS-2'
      ? ` because of ${s.outsideGsm
          .slice(0, 3)
          .map((ch) => `'${ch}' (${codePoint(ch)})`)
          .join(', ')}${s.outsideGsm.length > 3 ? ` and ${s.outsideGsm.length - 3} more` : ''}, which GSM-7 does not have`
      : '';
  const checks: Check[] = [{ level: s.encoding === 'UCS-2' ? 'warning' : 'ok', check: 'encoding', text: `${s.encoding}${why}` }];
  if (s.units === 0) checks.push({ level: 'problem', check: 'segments', text: 'the text is empty' });
  else if (s.segments === 1) checks.push({ level: 'ok', check: 'segments', text: `1 segment: ${n(s.units)} of the ${s.single} ${unit} one SMS holds` });
  else {
    checks.push({
      level: 'warning',
      check: 'segments',
      text: `${s.segments} segments, billed as ${s.segments} messages: ${n(s.units)} ${unit} exceed the ${s.single} of one SMS (${s.perSegment} per part when split)`,
    });
  }
  return checks;
}

/** The data a push carries: the trigger's overrides for its provider, else `overrides.data`. */
function pushData(m: OutboxMessage): Record<string, unknown> {
  const o = (m.overrides ?? {}) as Record<string, unknown>;
  const own = m.providerId ? (o[m.providerId] as { data?: unknown } | undefined)?.data : undefined;
  const data = own ?? (o.push as { data?: unknown } | undefined)?.data ?? o.data;
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
}

/**
 * The payload each service would receive: APNs `{"aps":{"alert":{title,body}}, ...data}`, FCM
 * `{"notification":{title,body},"data":{...}}` with the data's values as strings (FCM takes no others).
 */
function pushInfo(m: OutboxMessage): PushInfo {
  const title = m.title ?? m.subject ?? '';
  const body = bodyOf(m);
  const data = pushData(m);
  const apns = JSON.stringify({ aps: { alert: { title, body } }, ...data });
  const fcmData = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  const fcm = JSON.stringify({ notification: { title, body }, ...(Object.keys(fcmData).length > 0 && { data: fcmData }) });
  return { title, body, data, apnsBytes: byteLength(apns), fcmBytes: byteLength(fcm) };
}

function pushChecks(p: PushInfo): Check[] {
  const limit = (check: string, name: string, bytes: number, max: number): Check =>
    bytes > max
      ? {
          level: 'problem',
          check,
          text: `${name} payload is ${n(bytes)} bytes: over ${name}'s ${n(max)}-byte limit by ${n(bytes - max)}; the provider refuses it`,
        }
      : { level: 'ok', check, text: `${name} payload is ${n(bytes)} of ${n(max)} bytes` };
  const checks = [limit('apns', 'APNs', p.apnsBytes, APNS_MAX_BYTES), limit('fcm', 'FCM', p.fcmBytes, FCM_MAX_BYTES)];
  if (p.title === '') checks.push({ level: 'warning', check: 'title', text: 'no title: most devices show the app name alone above the body' });
  return checks;
}

/** Where a link goes wrong for a reader: not absolute, not https, or only reachable from this machine. */
function linkProblem(url: string): { level: Level; why: string } | undefined {
  if (url === '' || url === '#') return { level: 'problem', why: 'goes nowhere' };
  if (/^javascript:/i.test(url)) return { level: 'problem', why: 'is a javascript: link, which mail clients remove' };
  if (/^(mailto|tel|sms):/i.test(url)) return undefined;
  if (/^\{\{|%7B%7B/i.test(url)) return { level: 'problem', why: 'is an unrendered variable' };
  if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) return { level: 'problem', why: 'is not absolute: a mail client has no page to resolve it against' };
  let host = '';
  try {
    host = new URL(url).hostname;
  } catch {
    return { level: 'problem', why: 'is not a valid URL' };
  }
  if (/^(localhost|127\.|\[::1\]|0\.0\.0\.0)/i.test(host) || host.endsWith('.localhost'))
    return { level: 'warning', why: 'points at this machine: it works only where the app runs locally' };
  if (/^http:/i.test(url)) return { level: 'warning', why: 'is plain http: many clients warn before opening it' };
  return undefined;
}

function linkChecks(links: Link[]): Check[] {
  if (links.length === 0) return [{ level: 'ok', check: 'links', text: 'no links' }];
  const checks: Check[] = [];
  for (const l of links) {
    const p = linkProblem(l.url);
    if (p) checks.push({ level: p.level, check: 'links', text: `${l.url || '(empty)'} ${p.why}` });
  }
  if (checks.length === 0) checks.push({ level: 'ok', check: 'links', text: `${links.length} link${links.length === 1 ? '' : 's'}, all absolute https` });
  return checks;
}

function imageChecks(images: Image[]): Check[] {
  if (images.length === 0) return [];
  const checks: Check[] = [];
  const noAlt = images.filter((i) => i.alt === undefined).length;
  if (noAlt > 0)
    checks.push({ level: 'warning', check: 'images', text: `${noAlt} of ${images.length} image(s) without alt text: blank where images are blocked` });
  for (const i of images) {
    if (/^data:/i.test(i.src))
      checks.push({ level: 'problem', check: 'images', text: `an image is inline data (data: URI), which Gmail and Outlook do not show` });
    else if (i.src === '' || !/^https?:\/\//i.test(i.src))
      checks.push({ level: 'problem', check: 'images', text: `image ${i.src || '(no src)'} is not an absolute URL` });
    else if (/^http:/i.test(i.src)) checks.push({ level: 'warning', check: 'images', text: `image ${i.src} is plain http: mixed content in webmail` });
  }
  if (checks.length === 0) checks.push({ level: 'ok', check: 'images', text: `${images.length} image(s), each with alt text and an https source` });
  return checks;
}

function emailInfo(m: OutboxMessage, from: Mailbox | undefined): { info: EmailInfo; checks: Check[] } {
  const html = bodyOf(m);
  const parts = emailSource(m, from);
  const htmlBytes = byteLength(html);
  const links = messageLinks(m);
  const images = htmlImages(html);
  const checks: Check[] = [
    htmlBytes > GMAIL_CLIP_BYTES
      ? {
          level: 'problem',
          check: 'size',
          text: `HTML is ${kb(htmlBytes)} (${n(htmlBytes)} bytes): over the 102 KB past which Gmail clips the message, by ${kb(htmlBytes - GMAIL_CLIP_BYTES)}`,
        }
      : { level: 'ok', check: 'size', text: `HTML is ${kb(htmlBytes)} of the 102 KB past which Gmail clips a message` },
  ];
  if (!m.subject) checks.push({ level: 'problem', check: 'subject', text: 'the subject is empty' });
  if (!from) checks.push({ level: 'warning', check: 'from', text: "no sender known: the integration has no 'from' credential" });
  if (parts.text === '') checks.push({ level: 'warning', check: 'text', text: 'the text part is empty: a text-only client shows nothing' });
  checks.push(...linkChecks(links), ...imageChecks(images));
  return { info: { headers: Object.fromEntries(parts.headers), text: parts.text, htmlBytes, links, images }, checks };
}

/** The message as sent and its checks. `from`: the email integration's sender, when known. */
export function inspectMessage(m: OutboxMessage, opts: { from?: Mailbox | undefined } = {}): Inspection {
  switch (m.channel) {
    case 'email': {
      const { info, checks } = emailInfo(m, opts.from);
      return { channel: m.channel, checks, email: info };
    }
    case 'sms': {
      const sms = smsInfo(bodyOf(m));
      return { channel: m.channel, checks: [...smsChecks(sms), ...linkChecks(messageLinks(m)).filter((c) => c.level !== 'ok')], sms };
    }
    case 'push': {
      const push = pushInfo(m);
      return { channel: m.channel, checks: pushChecks(push), push };
    }
    default: {
      const links = messageLinks(m);
      const checks: Check[] = bodyOf(m) === '' ? [{ level: 'problem', check: 'body', text: 'the body is empty' }] : [];
      return { channel: m.channel, checks: [...checks, ...linkChecks(links)], links };
    }
  }
}

/** The email integration's sender from its credentials (`from`, `senderName`), when it has one. */
export function senderOf(integration: { credentials?: unknown } | undefined): Mailbox | undefined {
  const c = integration?.credentials as { from?: unknown; senderName?: unknown } | undefined;
  if (typeof c?.from !== 'string' || c.from === '') return undefined;
  return { address: c.from, ...(typeof c.senderName === 'string' && c.senderName !== '' && { name: c.senderName }) };
}
