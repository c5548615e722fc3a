/**
 * The default memory for in-memory facet columns (`query.facetColumnsMb`), from the machine's
 * memory: an eighth of it, at least 256 MiB and at most 4 GiB, for all query workers together.
 *
 * The columns grow with the corpus and every worker holds its own: at 1M publications about
 * 50 MiB a worker, at 10M about 500 MiB (1.5 GiB for the default three workers). A facet whose
 * columns do not fit runs in SQL, 10 to 100 times slower: at 10M, with a fixed 256 MiB, the text
 * facets took 1.3–4.3 s instead of under 1 s, and a whole-corpus facet with a median ran past
 * the 30 s limit (README, 10M figures). Only what a corpus needs is held, so a larger budget
 * costs nothing at 1M.
 *
 * @example defaultFacetColumnsMb(24 * 2 ** 30) // 3072
 */
import { totalmem } from 'node:os';

export const MIN_DEFAULT_FACET_COLUMNS_MB = 256;
export const MAX_DEFAULT_FACET_COLUMNS_MB = 4096;

export function defaultFacetColumnsMb(machineBytes: number = totalmem()): number {
  const eighth = Math.floor(machineBytes / 2 ** 20 / 8);
  return Math.min(MAX_DEFAULT_FACET_COLUMNS_MB, Math.max(MIN_DEFAULT_FACET_COLUMNS_MB, eighth));
}
