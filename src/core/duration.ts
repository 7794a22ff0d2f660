// Durations (`500ms`, `10s`, `2m`) and times (ISO 8601 or a relative age such as `2h`), as cli.md's
// "Input values" describes. Pure functions: `now` is passed in.

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};
const DURATION_RE = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)$/;

/** Milliseconds of a duration, or undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  const m = DURATION_RE.exec(text.trim());
  if (!m) return undefined;
  const ms = Number(m[1]) * UNIT_MS[m[2]!]!;
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}

const ISO_RE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An absolute ISO 8601 time, or a relative age counted back from `now`. Returns the ISO string, or
 * undefined when the text is neither.
 */
export function parseTime(text: string, now: number): string | undefined {
  const t = text.trim();
  const age = parseDuration(t);
  if (age !== undefined) return new Date(now - age).toISOString();
  if (!ISO_RE.test(t)) return undefined;
  const ms = Date.parse(t);
  if (Number.isNaN(ms)) return undefined;
  // Date.parse rolls 2026-02-30 over to 2 March; a date that is not on the calendar is a typo.
  const [y, mo, d] = t.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return undefined;
  return new Date(ms).toISOString();
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return s ? `${m}m${s}s` : `${m}m`;
}
