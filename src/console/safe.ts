// The one place the console neutralises text for display. Text the service holds is written by
// anyone (a subscriber's name, a payload value, a provider's error): a bidi override (U+202E) makes
// "evil" read "live", and ESC or BEL show as boxes. Every string preact puts on the page as text,
// and every `title`, `aria-label` and `alt`, passes through `safeDisplay` (installed as preact's
// `options.vnode` hook), which shows those characters as the CLI does: `\u202e`, `\e`, `\a`.
// Values the console sends back (ids in links and queries, form values, `data-*`) are not touched,
// nor is a joiner (U+200D), which emoji sequences need.
import { options, type VNode } from 'preact';

/**
 * C0 (but tab and line feed, which lay text out), DEL, C1, and the bidi marks, embeddings,
 * overrides and isolates: U+200E, U+200F, U+061C, U+202A–U+202E, U+2066–U+2069.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

const NAMED: Record<string, string> = {
  '\u0000': '\\0',
  '\u0007': '\\a',
  '\b': '\\b',
  '\u000b': '\\v',
  '\f': '\\f',
  '\r': '\\r',
  '\u001b': '\\e',
};

function escapeChar(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code <= 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `s` with every control character and bidi control shown as a visible escape (`\u202e`, `\e`). */
export function safeDisplay(s: string): string {
  return UNSAFE.test(s) ? s.replace(UNSAFE_ALL, escapeChar) : s;
}

/** Attributes a person reads (a tooltip, what a screen reader says); never values sent anywhere. */
const READ_ATTRS = ['title', 'aria-label', 'alt'] as const;

const previous = options.vnode;
options.vnode = (vnode: VNode) => {
  const node = vnode as { type: unknown; props: unknown };
  // A text node: preact makes one per string child, with the string as its props.
  if (node.type === null && typeof node.props === 'string') {
    node.props = safeDisplay(node.props);
  } else if (typeof vnode.type === 'string' && vnode.props) {
    const props = vnode.props as Record<string, unknown>;
    for (const k of READ_ATTRS) {
      const v = props[k];
      if (typeof v === 'string' && UNSAFE.test(v)) props[k] = safeDisplay(v);
    }
    // A single string child of an element is rendered as a text node later, which passes the hook.
  }
  previous?.(vnode);
};
