/**
 * Tallies of the records the sources' generators make (`source-generators.ts`), wherever
 * they are made (a publication thread tallies the records it makes beside its papers, the
 * main thread merges them), and the validation checks of their stated shares.
 */
import type { SourceGenerator } from './source-generator.ts';
import { check, type Check } from './validation.ts';

/** One source's records: how many, and how many have each of its shares (in `shares` order). */
export interface SourceTally {
  records: number;
  readonly hits: number[];
}

/** Tallies by source name. */
export type SourceTallies = Record<string, SourceTally>;

/** Empty tallies of `generators`. */
export function noSourceTallies(generators: readonly SourceGenerator[]): SourceTallies {
  return Object.fromEntries(
    generators.map((g) => [g.kind, { records: 0, hits: (g.shares ?? []).map(() => 0) } satisfies SourceTally]),
  );
}

/** Adds one record of `generator`'s source. */
export function tallySourceRecord(tallies: SourceTallies, generator: SourceGenerator, record: object): void {
  const t = tallies[generator.kind];
  if (t === undefined) throw new Error(`no tally for ${generator.kind}`);
  t.records++;
  generator.shares?.forEach((share, k) => {
    if (share.has(record)) t.hits[k] = (t.hits[k] as number) + 1;
  });
}

/** Adds the tallies `from` into `into`. */
export function mergeSourceTallies(into: SourceTallies, from: SourceTallies): void {
  for (const [kind, t] of Object.entries(from)) {
    const sum = into[kind];
    if (sum === undefined) {
      into[kind] = { records: t.records, hits: [...t.hits] };
      continue;
    }
    sum.records += t.records;
    for (let k = 0; k < t.hits.length; k++) sum.hits[k] = (sum.hits[k] ?? 0) + (t.hits[k] as number);
  }
}

/**
 * Each stated share against the records made. The tolerance widens by four standard errors
 * of a share of that many records, so a small run (30 trials beside 5,000 papers) is judged
 * on what its size can show; with no records the share is NaN, out of tolerance.
 */
export function sourceChecks(
  generators: readonly SourceGenerator[],
  tallies: SourceTallies,
  asked: ReadonlySet<string> = new Set(),
): Check[] {
  return generators.flatMap((g) =>
    (g.shares ?? []).flatMap((share, k) => {
      // A share set by the mix of records beside papers and from the run holds only at the
      // run's own numbers: not judged when the run asked the source for another.
      if (share.atRunScale === true && asked.has(g.kind)) return [];
      const t = tallies[g.kind];
      const n = t?.records ?? 0;
      const value = n === 0 ? NaN : (t?.hits[k] ?? 0) / n;
      const slack = share.tolerance + (n === 0 ? 0 : 4 * Math.sqrt((share.target * (1 - share.target)) / n));
      return [check(share.name, value, Math.max(0, share.target - slack), Math.min(1, share.target + slack))];
    }),
  );
}
