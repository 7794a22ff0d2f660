// Mailpit's search words (its docs' "Search filters"): `to:`, `from:`, `cc:`, `bcc:`, `reply-to:`,
// `addressed:`, `subject:`, `message-id:`, `tag:`, `is:read`, `is:unread`, `has:attachment`,
// `has:inline`, `after:`, `before:`, `larger:`, `smaller:`, and plain words; each negated by a leading
// `-` or `!`, phrases quoted. As Mailpit matches them: part of the value, in any case.
import type { MailpitEmail } from './shapes.js';

export type Predicate = (m: MailpitEmail) => boolean;

/** The search split into words, quoted phrases kept whole and their quotes removed. */
function searchWords(search: string): string[] {
  const out: string[] = [];
  for (const m of search.matchAll(/(?:[^\s"]+|"[^"]*")+/g)) out.push(m[0].replace(/"/g, ''));
  return out.filter((w) => w.trim() !== '');
}

const has = (value: string, part: string) => value.toLowerCase().includes(part.toLowerCase());
const addresses = (list: { Name: string; Address: string }[]) => list.map((a) => `${a.Name} ${a.Address}`).join(' ');

/** `2kb`, `4MB`, `1.5m`, `500`: bytes, or 0 when the text is not a size. */
function sizeToBytes(text: string): number {
  const m = /^(\d+)(\.\d+)?\s?([a-z]{1,2})?$/.exec(text.toLowerCase());
  if (!m) return 0;
  const v = Number(`${m[1]}${m[2] ?? ''}`);
  const unit = m[3] ?? '';
  if (unit === '') return Math.trunc(v);
  if (unit === 'k' || unit === 'kb') return Math.trunc(v * 1024);
  if (unit === 'm' || unit === 'mb') return Math.trunc(v * 1024 * 1024);
  return 0;
}

function wordPredicate(word: string): Predicate | undefined {
  const lw = word.toLowerCase();
  const prefixed = (prefix: string, value: (m: MailpitEmail) => string): Predicate | undefined => {
    const part = word.slice(prefix.length).trim();
    return part === '' ? undefined : (m) => has(value(m), part);
  };
  const byPrefix: [string, (m: MailpitEmail) => string][] = [
    ['to:', (m) => addresses(m.To)],
    ['from:', (m) => addresses([m.From])],
    ['cc:', (m) => addresses(m.Cc)],
    ['bcc:', (m) => addresses(m.Bcc)],
    ['reply-to:', (m) => addresses(m.ReplyTo)],
    ['addressed:', (m) => addresses([...m.To, m.From, ...m.Cc, ...m.Bcc, ...m.ReplyTo])],
    ['subject:', (m) => m.Subject],
    ['message-id:', (m) => m.MessageID],
  ];
  for (const [prefix, value] of byPrefix) if (lw.startsWith(prefix)) return prefixed(prefix, value);
  // svc dev's messages carry no tags, attachments or inline parts.
  if (lw.startsWith('tag:') || lw === 'is:tagged' || lw === 'has:attachment' || lw === 'has:attachments' || lw === 'has:inline' || lw === 'has:inlines')
    return () => false;
  if (lw === 'is:read') return (m) => m.Read;
  if (lw === 'is:unread') return (m) => !m.Read;
  for (const [prefix, after] of [
    ['after:', true],
    ['before:', false],
  ] as const) {
    if (!lw.startsWith(prefix)) continue;
    const t = Date.parse(word.slice(prefix.length));
    // Mailpit ignores a date it cannot read.
    if (Number.isNaN(t)) return undefined;
    return (m) => (after ? Date.parse(m.Created) >= t : Date.parse(m.Created) <= t);
  }
  for (const [prefix, larger] of [
    ['larger:', true],
    ['smaller:', false],
  ] as const) {
    const size = lw.startsWith(prefix) ? sizeToBytes(word.slice(prefix.length)) : 0;
    if (size > 0) return (m) => (larger ? m.Size > size : m.Size < size);
  }
  return (m) => has(m.searchText, word);
}

/** A predicate for a Mailpit search: every word must hold (its opposite for a negated word). */
export function parseSearch(search: string): Predicate {
  const tests: Predicate[] = [];
  for (let word of searchWords(search)) {
    let exclude = false;
    if (word.length > 1 && (word.startsWith('-') || word.startsWith('!'))) {
      exclude = true;
      word = word.slice(1);
    }
    // Mailpit skips a word with no letter or digit in it.
    if (!/[a-zA-Z0-9]/.test(word)) continue;
    const test = wordPredicate(word);
    if (test) tests.push(exclude ? (m) => !test(m) : test);
  }
  return (m) => tests.every((t) => t(m));
}
