// "Did you mean": the known names closest to one that was not found (an unknown workflow id). Pure.

/** Levenshtein distance between two short strings. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * Up to `max` candidates close to `name`, the closest first: those within a third of its length in edit
 * distance (at least 2), or that contain it or are contained in it (a prefix, a missing suffix).
 */
export function closest(name: string, candidates: readonly string[], max = 3): string[] {
  const n = name.toLowerCase();
  const limit = Math.max(2, Math.floor(n.length / 3));
  return [...new Set(candidates)]
    .map((c) => ({ c, d: editDistance(n, c.toLowerCase()), part: c.toLowerCase().includes(n) || n.includes(c.toLowerCase()) }))
    .filter((x) => x.d <= limit || (x.part && Math.min(n.length, x.c.length) >= 3))
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
    .slice(0, max)
    .map((x) => x.c);
}
