// What a preview's message says, for a terminal: an HTML body as the text a reader sees (paragraphs,
// line breaks, list items, link targets), every body wrapped to the terminal's width and never cut.
// `-o json` keeps the HTML as the service rendered it.

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  copy: '©',
  reg: '®',
  hellip: '…',
  mdash: '—',
  ndash: '–',
};

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return ENTITIES[name.toLowerCase()] ?? all;
  });
}

const looksLikeHtml = (s: string) => /<(p|br|div|table|html|body|h[1-6]|ul|ol|li|a|span|strong|em|img)\b[^>]*>/i.test(s);

/** The text an HTML body shows: block ends become line breaks, `<a href>` keeps its target, tags go. */
function htmlToText(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(head|style|script|title)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/\s+/g, ' ')
    .replace(/<a\b[^>]*?href\s*=\s*(["'])(.*?)\1[^>]*>([\s\S]*?)<\/a\s*>/gi, (_all, _q, href: string, label: string) => {
      const shown = label.replace(/<[^>]*>/g, '').trim();
      const target = decode(href);
      return shown && shown !== target ? `${shown} (${target})` : target;
    })
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n• ')
    .replace(/<\/(p|div|h[1-6]|ul|ol|table|tr|blockquote|section|header|footer)\s*>/gi, '\n\n')
    .replace(/<(p|div|h[1-6]|tr|blockquote|section)\b[^>]*>/gi, '\n')
    .replace(/<\/t[dh]\s*>/gi, '  ')
    .replace(/<[^>]*>/g, '');
  return decode(text)
    .split('\n')
    .map((l) => l.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Word-wraps each line to `width` columns (a word longer than the line is broken, never dropped). */
function wrap(text: string, width: number): string {
  const w = Math.max(20, width);
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (line.length <= w) {
      out.push(line);
      continue;
    }
    let cur = '';
    for (const word of line.split(' ')) {
      let rest = word;
      while (rest.length > w) {
        if (cur) out.push(cur);
        cur = '';
        out.push(rest.slice(0, w));
        rest = rest.slice(w);
      }
      if (!cur) cur = rest;
      else if (cur.length + 1 + rest.length <= w) cur += ` ${rest}`;
      else {
        out.push(cur);
        cur = rest;
      }
    }
    out.push(cur);
  }
  return out.join('\n');
}

/** The message fields shown whole under the preview's table, in this order. */
export const TEXT_FIELDS = ['subject', 'body', 'content'] as const;

/** A preview field as a block of text: its label, then the whole value (HTML as text) wrapped to `width`. */
export function textBlock(label: string, value: string, width: number): string {
  const html = looksLikeHtml(value);
  const text = html ? htmlToText(value) : value;
  const indented = wrap(text, width - 2)
    .split('\n')
    .map((l) => (l ? `  ${l}` : ''))
    .join('\n');
  return `${label}${html ? ' (HTML shown as text; -o json has the HTML)' : ''}:\n${indented}`;
}
