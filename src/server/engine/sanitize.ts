// Output sanitization of in-app and email bodies: an allow-list of tags and attributes, as the service
// does with sanitize-html's defaults plus `style` and `img` (and the document tags emails need). Script,
// frames, objects and event-handler attributes go; URLs keep only safe schemes. A small tokenizer
// rather than a new dependency: it only needs to recognise tags, comments and text.
import { LRUCache } from 'lru-cache';

const ALLOWED_TAGS = new Set([
  'address',
  'article',
  'aside',
  'footer',
  'header',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hgroup',
  'main',
  'nav',
  'section',
  'blockquote',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'hr',
  'li',
  'ol',
  'p',
  'pre',
  'ul',
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'br',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'i',
  'kbd',
  'mark',
  'q',
  'rb',
  'rp',
  'rt',
  'rtc',
  'ruby',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
  'caption',
  'col',
  'colgroup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'style',
  'img',
  'html',
  'head',
  'body',
  'title',
  'meta',
  'center',
  'font',
  'strike',
  'del',
  'ins',
]);

/** Dropped together with everything inside them. */
const DROP_WITH_CONTENT = new Set([
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'noscript',
  'template',
  'svg',
  'math',
  'textarea',
  'select',
  'option',
  'noembed',
  'xmp',
  'plaintext',
]);

const VOID = new Set(['br', 'hr', 'img', 'col', 'wbr', 'meta']);

const GLOBAL_ATTRIBUTES = new Set([
  'style',
  'class',
  'id',
  'title',
  'dir',
  'lang',
  'align',
  'valign',
  'width',
  'height',
  'bgcolor',
  'border',
  'cellpadding',
  'cellspacing',
  'colspan',
  'rowspan',
  'role',
  'color',
  'face',
  'size',
]);

const TAG_ATTRIBUTES: Record<string, Set<string>> = {
  a: new Set(['href', 'name', 'target', 'rel']),
  img: new Set(['src', 'srcset', 'alt', 'loading']),
  meta: new Set(['charset', 'name', 'content']),
  time: new Set(['datetime']),
  data: new Set(['value']),
  ol: new Set(['start', 'type']),
  td: new Set(['headers', 'scope']),
  th: new Set(['headers', 'scope']),
};

const URL_ATTRIBUTES = new Set(['href', 'src']);
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel', 'cid']);

/** Numeric entities and the few named ones that matter (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`...). */
export function decodeEntities(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16) % 0x110000))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number.parseInt(dec, 10) % 0x110000))
    .replace(
      /&(colon|tab|newline|amp|lt|gt|quot|apos|nbsp);/gi,
      (_, name: string) =>
        ({
          colon: ':',
          tab: '\t',
          newline: '\n',
          amp: '&',
          lt: '<',
          gt: '>',
          quot: '"',
          apos: "'",
          nbsp: '\u00a0',
        })[name.toLowerCase()] as string,
    );
}

function safeUrl(value: string): boolean {
  // Browsers ignore whitespace and control characters inside a scheme; so must the check.
  const normalized = decodeEntities(value).replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(normalized);
  return scheme === null || SAFE_SCHEMES.has((scheme[1] as string).toLowerCase());
}

function safeStyle(value: string): boolean {
  const normalized = decodeEntities(value).replace(/\\/g, '').replace(/\s/g, '').toLowerCase();
  return !/expression\(|javascript:|vbscript:|-moz-binding|behavior:/.test(normalized);
}

const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;

/**
 * Attribute lists seen before, cleaned: a layout's markup (tables, inline styles) is the same in
 * every email it wraps, and cleaning it was the larger part of sanitizing one (a pure function of
 * the tag and its attribute text, so a cached answer is the same answer).
 */
const cleaned = new LRUCache<string, string>({ max: 4096 });

function cleanAttributes(tag: string, raw: string): string {
  if (raw === '') return '';
  const key = `${tag}\u0000${raw}`;
  let out = cleaned.get(key);
  if (out === undefined) {
    out = cleanAttributesOf(tag, raw);
    cleaned.set(key, out);
  }
  return out;
}

function cleanAttributesOf(tag: string, raw: string): string {
  const allowed = TAG_ATTRIBUTES[tag];
  let out = '';
  for (const match of raw.matchAll(ATTRIBUTE)) {
    const name = (match[1] as string).toLowerCase();
    if (!GLOBAL_ATTRIBUTES.has(name) && !allowed?.has(name)) continue;
    let value = match[2] ?? '';
    if (value.startsWith('"') || value.startsWith("'")) value = value.slice(1, -1);
    if (URL_ATTRIBUTES.has(name) && !safeUrl(value)) continue;
    if (name === 'srcset' && !value.split(',').every((part) => safeUrl(part.trim().split(/\s+/)[0] ?? ''))) continue;
    if (name === 'style' && !safeStyle(value)) continue;
    out += match[2] === undefined ? ` ${name}` : ` ${name}="${value.replace(/"/g, '&quot;')}"`;
  }
  return out;
}

const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/y;
const COMMENT = /<!--[\s\S]*?(?:-->|$)/y;
const DOCTYPE = /<!doctype\s+html[^>]*>/iy;

/**
 * Text between tags as sanitize-html writes it: `<`, `>` and a bare `&` escaped, quotes left as they
 * are, entities already written kept but for the quotes' (`&quot;`, `&#39;`...), which come out as
 * the quotes themselves; the text of a `<style>` element is CSS and stays as it is.
 */
function escapeText(text: string, raw: boolean): string {
  if (raw || !/[&<>]/.test(text)) return text;
  return text
    .replace(/&(?:quot|#34|#x22);/gi, '"')
    .replace(/&(?:apos|#39|#x27);/gi, "'")
    .replace(/&(?!(?:#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Removes unsafe HTML: disallowed tags (dangerous ones with their content), attributes and URLs. */
export function sanitizeHtml(html: string): string {
  let out = '';
  let i = 0;
  let inStyle = false;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out += escapeText(html.slice(i), inStyle);
      break;
    }
    out += escapeText(html.slice(i, lt), inStyle);
    i = lt;
    COMMENT.lastIndex = i;
    DOCTYPE.lastIndex = i;
    const doctype = DOCTYPE.exec(html);
    if (doctype) {
      out += '<!DOCTYPE html>';
      i = DOCTYPE.lastIndex;
      continue;
    }
    if (COMMENT.exec(html)) {
      i = COMMENT.lastIndex;
      continue;
    }
    TAG.lastIndex = i;
    const tag = TAG.exec(html);
    if (!tag) {
      out += '&lt;';
      i += 1;
      continue;
    }
    i = TAG.lastIndex;
    const closing = tag[1] === '/';
    const name = (tag[2] as string).toLowerCase();
    if (DROP_WITH_CONTENT.has(name)) {
      if (!closing && tag[4] !== '/') {
        const end = new RegExp(`</${name}\\s*>`, 'ig');
        end.lastIndex = i;
        i = end.exec(html) ? end.lastIndex : html.length;
      }
      continue;
    }
    if (!ALLOWED_TAGS.has(name)) continue;
    if (closing) {
      if (!VOID.has(name)) out += `</${name}>`;
      if (name === 'style') inStyle = false;
      continue;
    }
    out += `<${name}${cleanAttributes(name, tag[3] ?? '')}>`;
    if (name === 'style' && tag[4] !== '/') inStyle = true;
  }
  return out;
}
