// The one place the console neutralises text for display. Text the service holds is written by
// anyone (a subscriber's name, a payload value, a provider's error): a bidi override (U+202E) makes
// "evil" read "live", and ESC or BEL show as boxes. Every string preact puts on the page as text,
// and every `title`, `aria-label` and `alt`, passes through `safeDisplay` (installed as preact's
// `options.vnode` hook), which shows those characters as the CLI does: `\u202e`, `\e`, `\a`.
// Values the console sends back (ids in links and queries, form values, `data-*`) are not touched,
// nor is a joiner (U+200D), which emoji sequences need.
import { options, type VNode } from 'preact';
import { chars, escapeChar } from '../io/safe-text.js';

/**
 * The CLI's set (io/safe-text.ts: C0, DEL, C1, the bidi controls and marks, the hidden characters)
 * with its escapes, but tab, line feed and carriage return, which a page lays out as white space.
 */
const C0_SHOWN = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f';
const UNSAFE = chars(C0_SHOWN);
const UNSAFE_ALL = chars(C0_SHOWN, 'g');

/** `s` with every control character and bidi control shown as a visible escape (`\u202e`, `\e`). */
function safeDisplay(s: string): string {
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
