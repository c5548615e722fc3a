/**
 * What a source declares about itself, in one place (`src/sources/<name>/model.ts`): its
 * field table, its storage (table, link tables, full-text table, `<owner>_values` codes),
 * how a record of it becomes rows, its entity kind when fields of other sources hold its
 * records, and the names of the outside formats it is imported from. The registry (`model/sources.ts`) lists the declarations; the schema, both
 * stores' DDL and rows, the compiler's layout, `describe` and the client's record types
 * are derived from them. `defineSource` checks a declaration as it is made.
 */
import type { EntitySpec } from './entities.ts';
import type { LooseRecord, SqlValue } from './record-values.ts';
import type { SourceTable } from './field-table.ts';
import type { FullTextDecl, LinkTableDecl, ReverseLinkDecl, SourceTableDecl } from './storage-types.ts';

/** Where a source's records are stored. */
export interface SourceStorage<Links extends string = string> {
  /** The source table (`pk`, `id`, its columns, `doc`) and its side tables. */
  readonly table: SourceTableDecl;
  /** Its link tables, each named `<singular>_<what>`, in the order the store writes them. */
  readonly links: readonly (LinkTableDecl & { readonly table: Links })[];
  /** Its full-text table, if it is searched with `for "..."`. */
  readonly fullText?: FullTextDecl;
  /** Fields read from another source's link table the other way round, each through a view. */
  readonly reverseLinks?: readonly ReverseLinkDecl[];
  /**
   * The stored code of each field of its `<owner>_values` table (`LinkTableDecl.holds` by
   * `field`), exposed fields first, in the order rows are written. Codes are in stored data:
   * never change or reuse one; a field two sources share has one code (the registry checks).
   */
  readonly valueFieldCodes?: Readonly<Record<string, string>>;
}

/** How a record of the source becomes rows (`store/rows.ts` applies them). Pure functions of the record. */
export interface SourceRows<Links extends string = string> {
  /** The rows of every link table of the source: key columns then extra columns, without the owner's `pk`. */
  readonly links: (record: LooseRecord) => { readonly [Table in Links]: SqlValue[][] };
  /** The texts of the full-text table's columns, in order (a source with a full-text table has it). */
  readonly fullText?: (record: LooseRecord) => string[];
  /**
   * The value of a column when the record has no field of the column's name, from what the
   * record holds instead (`journal_id` from `journal`).
   */
  readonly columnFallbacks?: Readonly<Record<string, (record: LooseRecord) => unknown>>;
  /** Fields never copied to `doc` (held only in a link table). */
  readonly notInDoc?: readonly string[];
  /** Its records name categories with their names (`category_for: [{id, name}]`): the store keeps them. */
  readonly namedCategories?: true;
  /** Its records name a journal (`journal: {id, title}`): the store keeps its title in `source_titles`. */
  readonly journal?: true;
}

/** A source's declaration. */
export interface SourceDeclaration<
  Name extends string = string,
  Links extends string = string,
  Fields extends SourceTable = SourceTable,
  Formats extends string = string,
> {
  /** The name queries use, and the record kind (`publications`). */
  readonly name: Name;
  /** One record of it (`publication`): its link tables' owner key is `<singular>_pk`. */
  readonly singular: string;
  /**
   * The record kinds its records name by id (organizations, researchers, ...), which an import
   * writes before it (`NATIVE_KINDS`).
   */
  readonly refersTo: readonly string[];
  /** The field table (spec/data-model.md): fields, fieldsets, search indexes, indicators. */
  readonly fieldTable: Fields;
  /** The `long_description` of its structured fields: the shape of each returned object. */
  readonly longDescriptions?: Readonly<Record<string, string>>;
  readonly storage: SourceStorage<Links>;
  readonly rows: SourceRows<NoInfer<Links>>;
  /** The entity kind of the same name, when fields of other sources hold its records. */
  readonly entity?: EntitySpec;
  /**
   * The fields a native record (`quarry generate`'s JSONL) must hold, with their JSON type:
   * enough for the store to place the record. The native importer refuses a record without.
   */
  readonly requiredFields?: readonly (readonly [field: string, type: 'string' | 'number'])[];
  /**
   * The outside formats its records are imported from, each its `--format` name and a summary
   * for `quarry import --help` (the files it reads, as published), in the order detection asks
   * them. Only the names: how files are recognised and read is the data layer's, in the
   * source's `data.ts` (listed in `src/data/sources.ts`), so the command line lists the
   * formats without loading a reader.
   */
  readonly importFormats?: Readonly<Record<Formats, string>>;
}

/**
 * Declares a source, checking what the types cannot: the full-text hook goes with a
 * full-text table, link tables are named for their owner, and every `<owner>_values` field
 * has a code. Throws a plain Error at start-up for a declaration that breaks them.
 *
 * @example export const patents = defineSource({ name: 'patents', singular: 'patent', ... });
 */
export function defineSource<
  const Name extends string,
  const Links extends string,
  const Fields extends SourceTable,
  const Formats extends string = never,
>(declaration: SourceDeclaration<Name, Links, Fields, Formats>): SourceDeclaration<Name, Links, Fields, Formats> {
  const { name, singular, storage, rows } = declaration;
  const problem = (what: string): Error => new Error(`source ${name}: ${what}`);
  if ((storage.fullText === undefined) !== (rows.fullText === undefined))
    throw problem('a full-text table and its rows.fullText hook go together');
  const tables = new Set<string>();
  for (const link of storage.links) {
    if (!link.table.startsWith(`${singular}_`)) throw problem(`link table ${link.table} is not named ${singular}_...`);
    if (tables.has(link.table)) throw problem(`link table ${link.table} is declared twice`);
    tables.add(link.table);
    const holds = link.holds;
    if ('discriminator' in holds && holds.discriminator === 'field')
      for (const field of [...Object.keys(holds.fields), ...(holds.unexposed ?? [])])
        if (storage.valueFieldCodes?.[field] === undefined)
          throw problem(`no stored code for the values field ${field}`);
  }
  for (const reverse of storage.reverseLinks ?? [])
    if (!reverse.view.startsWith(`${singular}_`) || tables.has(reverse.view))
      throw problem(`reverse link view ${reverse.view} is not named ${singular}_... or names a link table`);
  return declaration;
}
