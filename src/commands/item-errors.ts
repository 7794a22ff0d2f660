// Answers that list per-item errors beside what succeeded (topic subscriptions: `{data, meta, errors}`).
// The request as a whole succeeded, but a person or a script asked for every item: one that failed is
// a failure of the command. What succeeded is printed as data (a table of it at a terminal, the whole
// answer in JSON); each failed item is named with the service's reason on stderr; the exit code is 5
// when every failure is something not found, else 6 (cli.md: "rejected by the service").
import { EXIT, SvcError } from '../core/errors.js';
import { safeText } from '../io/safe-text.js';

interface ItemError {
  /** The item as the caller named it (a subscriber id). */
  item: string;
  code?: string | undefined;
  message: string;
}

/** The per-item failures of a request that listed several items. */
export class ItemErrors extends SvcError {
  constructor(
    readonly summary: string,
    readonly items: readonly ItemError[],
  ) {
    const notFound = items.every((e) => /NOT_FOUND/i.test(e.code ?? '') || /not (be )?found/i.test(e.message));
    super(
      `${summary}: ${items.map((e) => `${clean(e.item)} (${clean(e.message)})`).join('; ')}`,
      notFound ? 'not_found' : 'item_errors',
      notFound ? EXIT.notFound : EXIT.rejected,
    );
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), items: this.items.map((e) => ({ item: e.item, ...(e.code !== undefined && { code: e.code }), message: e.message })) };
  }
}

/** Service text for one line of stderr: no control characters, no line breaks, not endless. */
function clean(s: string): string {
  const t = safeText(s).replace(/\s+/g, ' ').trim();
  return t.length > 200 ? `${t.slice(0, 199)}…` : t;
}
