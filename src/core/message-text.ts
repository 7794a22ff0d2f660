// What a test reads from a delivered message: its text, its links, a one-time code, or what a pattern
// captures. Pure functions over the message record as the API returns it (GET /v1/messages), shared
// by `svc messages wait --extract`, `svc messages get`, the console and svc dev's Mailpit API.

/** The fields of a message record these functions read (the API's Message, structurally). */
export interface OutboxMessage {
  _id?: string | undefined;
  channel: string;
  subject?: string | undefined;
  title?: string | undefined;
  content?: unknown;
  cta?: unknown;
  email?: string | undefined;
  phone?: string | undefined;
  deviceTokens?: string[] | undefined;
  providerId?: string | undefined;
  createdAt?: string | undefined;
  overrides?: unknown;
  payload?: unknown;
  data?: unknown;
}

/** The message's body as stored: HTML for email, text for the others (block content as JSON). */
export function bodyOf(m: OutboxMessage): string {
  if (typeof m.content === 'string') return m.content;
  if (m.content === undefined || m.content === null) return '';
  return JSON.stringify(m.content);
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
  zwnj: '\u200c',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** An attribute's value in a tag's text (`href`, `src`, `alt`), entities decoded; undefined when absent. */
export function attribute(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  if (!m) return undefined;
  return decodeEntities(m[1] ?? m[2] ?? m[3] ?? '');
}

/** Elements whose content a reader never sees. */
const HIDDEN = /<(head|style|script|title|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const BLOCK_END = /<\/(p|div|h[1-6]|li|tr|table|blockquote|section|article|header|footer|ul|ol)\s*>/gi;

/**
 * The text a reader of the HTML sees, as a plain-text part would carry it: hidden elements gone,
 * blocks and breaks as new lines, each link's target after its words (`words (url)`) when they differ.
 */
export function htmlToText(html: string, opts: { links?: boolean } = {}): string {
  const withLinks = opts.links !== false;
  let s = html.replace(/<!--[\s\S]*?-->/g, '').replace(HIDDEN, '');
  s = s.replace(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi, (_whole, attrs: string, inner: string) => {
    const words = inner.replace(/<[^>]*>/g, '').trim();
    const href = attribute(` ${attrs}`, 'href');
    if (!withLinks || href === undefined || !/^(https?|mailto):/i.test(href)) return inner;
    return decodeEntities(words) === href || words === '' ? href : `${inner} (${href})`;
  });
  s = s
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(BLOCK_END, '\n')
    .replace(/<(td|th)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '');
  s = decodeEntities(s).replace(/\u00a0/g, ' ');
  return s
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface Link {
  url: string;
  /** Where it was found: `html` (an <a href>), `text`, `cta` (an in-app action). */
  from: 'html' | 'text' | 'cta';
  /** The link's words (HTML) or the action's label (in-app). */
  text?: string;
}

/** URLs written out in text (not HTML markup): http(s) up to the first space, bracket or quote. */
const TEXT_URL = /\bhttps?:\/\/[^\s<>"'`)\]]+/gi;

/** Links written in text, trailing punctuation of the sentence left out. */
export function textLinks(text: string): string[] {
  return [...text.matchAll(TEXT_URL)].map((m) => m[0].replace(/[.,;:!?]+$/, ''));
}

/** Every `<a href>` of the HTML, in document order, with its words. */
export function htmlAnchors(html: string): Link[] {
  const out: Link[] = [];
  const body = html.replace(/<!--[\s\S]*?-->/g, '').replace(HIDDEN, '');
  for (const m of body.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi)) {
    const href = attribute(` ${m[1]}`, 'href');
    if (href === undefined) continue;
    out.push({ url: href.trim(), from: 'html', text: decodeEntities(m[2]!.replace(/<[^>]*>/g, '')).trim() });
  }
  return out;
}

export interface Image {
  src: string;
  alt?: string | undefined;
}

export function htmlImages(html: string): Image[] {
  const body = html.replace(/<!--[\s\S]*?-->/g, '');
  return [...body.matchAll(/<img\b[^>]*>/gi)].map((m) => ({ src: (attribute(m[0], 'src') ?? '').trim(), alt: attribute(m[0], 'alt') }));
}

/** An in-app message's call to action: its redirect URL and its buttons' (by the service's shape). */
function ctaLinks(cta: unknown): Link[] {
  const out: Link[] = [];
  const c = cta as { data?: { url?: unknown }; action?: { buttons?: unknown } } | undefined;
  if (typeof c?.data?.url === 'string' && c.data.url !== '') out.push({ url: c.data.url, from: 'cta' });
  const buttons = Array.isArray(c?.action?.buttons) ? (c.action.buttons as Array<Record<string, unknown>>) : [];
  for (const b of buttons) {
    const url = (b.url ?? (b.redirect as { url?: unknown } | undefined)?.url) as unknown;
    if (typeof url === 'string' && url !== '') out.push({ url, from: 'cta', ...(typeof b.content === 'string' && { text: b.content }) });
  }
  return out;
}

/** The message's email text part: the HTML as a reader sees it (the service sends HTML alone). */
export function emailText(m: OutboxMessage): string {
  return htmlToText(bodyOf(m));
}

/**
 * Every link of the message, in the order a reader meets them: an email's <a href> (then URLs only
 * written in its text), an in-app message's call to action (then URLs in its body), the text's URLs
 * of SMS, push and chat. Each URL once.
 */
export function messageLinks(m: OutboxMessage): Link[] {
  const body = bodyOf(m);
  let links: Link[];
  switch (m.channel) {
    case 'email':
      links = [...htmlAnchors(body), ...textLinks(htmlToText(body, { links: false })).map((url): Link => ({ url, from: 'text' }))];
      break;
    case 'in_app':
      links = [...ctaLinks(m.cta), ...textLinks(htmlToText(body)).map((url): Link => ({ url, from: 'text' }))];
      break;
    default:
      links = textLinks(body).map((url): Link => ({ url, from: 'text' }));
  }
  const seen = new Set<string>();
  return links.filter((l) => l.url !== '' && !seen.has(l.url) && seen.add(l.url));
}

/** The first link a test would follow: http(s) links first, then any (mailto:, a relative path). */
export function firstLink(m: OutboxMessage): string | undefined {
  const links = messageLinks(m);
  return (links.find((l) => /^https?:\/\//i.test(l.url)) ?? links[0])?.url;
}

/**
 * The message's text parts in the order a code is looked for: email text then HTML (its visible
 * text: digits inside markup, colours or link targets are no code), in-app body, SMS text, push body.
 */
function textParts(m: OutboxMessage): string[] {
  const body = bodyOf(m);
  switch (m.channel) {
    case 'email':
      return [htmlToText(body, { links: false }), body.replace(HIDDEN, '').replace(/<[^>]*>/g, ' ')];
    case 'in_app':
      return [htmlToText(body, { links: false })];
    default:
      return [body];
  }
}

const OTP = /(?<![0-9A-Za-z_])[0-9]{4,8}(?![0-9A-Za-z_])/;

/** The first code of 4 to 8 digits standing on its own (not part of a longer number or word). */
export function firstOtp(m: OutboxMessage): string | undefined {
  for (const part of textParts(m)) {
    const found = OTP.exec(part);
    if (found) return found[0];
  }
  return undefined;
}

/** `/pattern/flags` or a bare pattern; a UsageError-worthy message when it does not compile. */
export function parsePattern(text: string): RegExp | string {
  const slashed = /^\/(.+)\/([dgimsuvy]*)$/s.exec(text);
  try {
    return slashed ? new RegExp(slashed[1]!, slashed[2]!.replace('g', '')) : new RegExp(text);
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * What a pattern captures in the message: its first capture group (the whole match when it has
 * none), searched in the subject or title, the text parts, then the raw body (markup and link
 * targets included, for a token inside a URL).
 */
function extractPattern(m: OutboxMessage, re: RegExp): string | undefined {
  const places = [m.subject ?? m.title ?? '', ...textParts(m), bodyOf(m)];
  for (const place of places) {
    const found = re.exec(place);
    if (found) return found.length > 1 ? found[1] : found[0];
  }
  return undefined;
}

export type Extract = 'link' | 'otp' | RegExp;

/** The value `--extract` prints, or undefined when the message has none. */
export function extract(m: OutboxMessage, what: Extract): string | undefined {
  if (what === 'link') return firstLink(m);
  if (what === 'otp') return firstOtp(m);
  return extractPattern(m, what);
}

/** Case-insensitive: whether `needle` is in the message's subject, title, text or body. */
export function messageContains(m: OutboxMessage, needle: string): boolean {
  const n = needle.toLowerCase();
  const body = bodyOf(m);
  const places = [m.subject, m.title, body, m.channel === 'email' || m.channel === 'in_app' ? htmlToText(body) : undefined];
  return places.some((p) => typeof p === 'string' && p.toLowerCase().includes(n));
}
