/**
 * "Did you mean" suggestions from the schema's names: the candidates closest to what was
 * written by edit distance (insertions, deletions, substitutions and swaps of neighbours),
 * case-insensitively, within a bound that grows with the word's length. Only the closest
 * candidates are offered (ties together).
 *
 * @example suggest('publication', ['publications', 'grants']) // ['publications']
 * @example suggest('titel', ['title', 'type', 'year'])         // ['title']
 */
export function suggest(input: string, candidates: Iterable<string>, max = 3): string[] {
  const lower = input.toLowerCase();
  const threshold = Math.floor(lower.length * 0.4) + 1;
  const scored: { name: string; distance: number }[] = [];
  for (const name of candidates) {
    if (name === input) continue;
    const candidate = name.toLowerCase();
    // A name the input begins (`title` → `title_only`) counts as one edit away.
    const prefix = lower.length >= 3 && candidate.startsWith(lower) ? 1 : Infinity;
    const distance = candidate === lower ? 0.5 : Math.min(prefix, editDistance(lower, candidate, threshold));
    if (distance <= threshold) scored.push({ name, distance });
  }
  const n = input.length;
  scored.sort(
    (a, b) =>
      a.distance - b.distance ||
      Math.abs(a.name.length - n) - Math.abs(b.name.length - n) ||
      (a.name < b.name ? -1 : 1),
  );
  // Only the closest: `titel` suggests `title`, not also `type` and `date`.
  const best = scored[0]?.distance;
  return scored
    .filter((s) => s.distance === best)
    .slice(0, max)
    .map((s) => s.name);
}

/** The hint sentence for a message: ` Did you mean 'x'?`, ` Did you mean 'x' or 'y'?`, or ''. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const found = suggest(input, candidates);
  if (found.length === 0) return '';
  const quoted = found.map((s) => `'${s}'`);
  const last = quoted.pop() as string;
  return ` Did you mean ${quoted.length > 0 ? `${quoted.join(', ')} or ${last}` : last}?`;
}

/** Scratch rows for editDistance, grown on demand (suggestions run on every rejected name). */
let scratch = new Int32Array(3 * 64);

/** Optimal-string-alignment distance; gives up (returns bound + 1) when it must exceed `bound`. */
function editDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  const width = b.length + 1;
  if (scratch.length < 3 * width) scratch = new Int32Array(3 * width);
  const rows = scratch;
  // Three rolling rows (two back, for the swap of neighbours) at offsets in one buffer.
  let before = 0;
  let prev = width;
  let row = 2 * width;
  for (let j = 0; j < width; j++) rows[prev + j] = j;
  for (let i = 1; i <= a.length; i++) {
    rows[row] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j < width; j++) {
      const bj = b.charCodeAt(j - 1);
      const del = (rows[prev + j] as number) + 1;
      const ins = (rows[row + j - 1] as number) + 1;
      const sub = (rows[prev + j - 1] as number) + (ai === bj ? 0 : 1);
      let d = del < ins ? del : ins;
      if (sub < d) d = sub;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        const swap = (rows[before + j - 2] as number) + 1;
        if (swap < d) d = swap;
      }
      rows[row + j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > bound) return bound + 1;
    const free = before;
    before = prev;
    prev = row;
    row = free;
  }
  return rows[prev + b.length] as number;
}
