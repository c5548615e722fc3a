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
  const gap = (name: string): number => Math.abs(name.length - input.length);
  scored.sort((a, b) => a.distance - b.distance || gap(a.name) - gap(b.name) || (a.name < b.name ? -1 : 1));
  // Only the closest: `titel` suggests `title`, not also `type` and `date`.
  const best = scored[0]?.distance;
  return scored.filter((s) => s.distance === best).slice(0, max).map((s) => s.name);
}

/** The hint sentence for a message: ` Did you mean 'x'?`, ` Did you mean 'x' or 'y'?`, or ''. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const found = suggest(input, candidates);
  if (found.length === 0) return '';
  const quoted = found.map((s) => `'${s}'`);
  const last = quoted.pop() as string;
  return ` Did you mean ${quoted.length > 0 ? `${quoted.join(', ')} or ${last}` : last}?`;
}

/** Optimal-string-alignment distance; gives up (returns bound + 1) when it must exceed `bound`. */
function editDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i]);
  const first = rows[0] as number[];
  for (let j = 1; j <= b.length; j++) first[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const prev = rows[i - 1] as number[];
    let rowMin = row[0] as number;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > bound) return bound + 1;
  }
  return (rows[a.length] as number[])[b.length] as number;
}
