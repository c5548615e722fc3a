/**
 * The generators of the sources beyond the first four, which `generate()` (`index.ts`) and the
 * publication threads (`publication-worker.ts`) read: each source's `data.ts` gives its own
 * (`source-generator.ts` says what one is) and `src/data/sources.ts` lists them. An import
 * writes the kinds in `NATIVE_KINDS` order whatever order the shards were made in.
 */
import type { PublicationRecord } from '../../model/native-records.ts';
import { NATIVE_KINDS } from '../../model/sources.ts';
import { SOURCE_DATA } from '../sources.ts';
import type { Context } from './context.ts';
import type { SourceGenerator } from './source-generator.ts';

export type { SourceGenerator } from './source-generator.ts';

/** The registered generators, in the order an import writes their kinds (`NATIVE_KINDS`). */
export const SOURCE_GENERATORS: readonly SourceGenerator[] = SOURCE_DATA.flatMap(({ kind, generator }) =>
  generator === undefined ? [] : [{ kind, ...generator }],
).sort((a, b) => NATIVE_KINDS.indexOf(a.kind) - NATIVE_KINDS.indexOf(b.kind));

/** The generators that make records beside each publication. */
const BESIDE_PUBLICATIONS = SOURCE_GENERATORS.filter((g) => g.ofPublication !== undefined);

/**
 * Makes every generator's records beside publication i (record `publication`) and hands
 * each to `take`, in registry order and then each generator's order: the order a run writes
 * them in, whichever thread made them.
 */
export function makeBesidePublication(
  ctx: Context,
  i: number,
  publication: PublicationRecord,
  take: (generator: SourceGenerator, record: object) => void,
): void {
  for (const generator of BESIDE_PUBLICATIONS)
    for (const record of generator.ofPublication?.(ctx, i, publication) ?? []) take(generator, record);
}
