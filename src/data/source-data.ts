/**
 * What a source brings to the data layer, declared in its own folder
 * (`src/sources/<name>/data.ts`) and listed once in `src/data/sources.ts`: how each import
 * format its declaration names (`importFormats` of its `model.ts`) is recognised and read,
 * and its generator. A source with neither has no `data.ts`.
 *
 * These parts are heavy (the readers load the archive, XML and database packages), so the
 * command line takes the formats' names and summaries from the registry of declarations
 * instead; and they are imported statically, since the import's reading thread, run from the
 * TypeScript sources, cannot load a module with `import()`.
 */
import type { ImportFormatOf, SourceFormatName, SourceModule, SourceName } from '../model/sources.ts';
import type { RecordsGenerator } from './generate/source-generator.ts';
import type { FormatParts } from './import/record-source.ts';

/** The formats a source's declaration names, each with its recognition and reader: every one, no other. */
type FormatsOf<Kind extends SourceName> = ImportFormatOf<Extract<SourceModule, { readonly name: Kind }>>;

/** A source's data-layer parts, as its `data.ts` declares them (`defineSourceData` checks them against its declaration). */
export type SourceDataOf<Kind extends SourceName> = {
  readonly kind: Kind;
  /** Its generator (`src/sources/<name>/generate.ts`), made with `recordsGenerator`. */
  readonly generator?: RecordsGenerator;
} & ([FormatsOf<Kind>] extends [never]
  ? { readonly formats?: never }
  : {
      /** Each import format its declaration names: how its files are recognised (`import-formats.ts`), and its reader. */
      readonly formats: { readonly [F in FormatsOf<Kind>]: FormatParts };
    });

/** A source's data-layer parts, as `src/data/sources.ts` lists them. */
export interface SourceData {
  readonly kind: SourceName;
  readonly generator?: RecordsGenerator;
  readonly formats?: Readonly<Partial<Record<SourceFormatName, FormatParts>>>;
}

/**
 * Declares a source's data-layer parts; the types ask for a recognition and a reader for
 * every import format the source's declaration names, and no other.
 *
 * @example export const patentData = defineSourceData({ kind: 'patents', formats: { uspto: {...}, ... }, generator: ... });
 */
export function defineSourceData<const Kind extends SourceName>(data: SourceDataOf<Kind>): SourceData {
  return data;
}
