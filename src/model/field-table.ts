import type { FieldType } from './types.ts';

/**
 * One row of a source's field table, written compactly so the tables read like
 * spec/data-model.md: `[name, type, flags, description]`. Flags: `f` filterable, `c` usable
 * as a facet, `m` multi-value, `n` a counter or flag every record has (no `is empty`).
 *
 * @example ['times_cited', 'integer', 'fcn', 'Number of held publications citing this one.']
 */
export type FieldRow = readonly [name: string, type: FieldType, flags: string, description: string];

/** A version-1 field that version 2 removed (spec/dsl.md §7). */
export interface RemovedFieldRow {
  readonly row: FieldRow;
  readonly replacement: string;
  readonly readsFrom: string;
  readonly derivation?: 'first-level' | 'affiliations-of-authors';
}

/**
 * A field of the current schema (spec/schema-2026.md) that answers with the data of a held
 * field under another name: grants `funder_orgs` are the held `funders`, `category_for_2020`
 * is `category_for`. Both versions have it; the storage layout holds only `readsFrom`.
 */
export interface AliasFieldRow {
  readonly row: FieldRow;
  readonly readsFrom: string;
}

/**
 * A field the hosted service dropped from its schema that real queries still ask for (grants
 * `resulting_publication_ids`, spec/schema-2026.md §8.1): both versions answer it, each query
 * naming it gets the hosted `_warnings` text naming `replacement`, and `describe` leaves it
 * out, as the hosted schema does. Its data is its own (a column, a link or a view).
 */
export interface DeprecatedFieldRow {
  readonly row: FieldRow;
  readonly replacement: string;
}

/** What each source module exports; `build.ts` turns it into descriptors. */
export interface SourceTable {
  readonly description: string;
  readonly fields: readonly FieldRow[];
  /** Removed in version 2, still answered (with a warning) in version 1. */
  readonly removedInV2: readonly RemovedFieldRow[];
  /** Current-schema names for held fields (no storage of their own). */
  readonly aliases?: readonly AliasFieldRow[];
  /** Fields answered with a deprecation warning in both versions, not described. */
  readonly deprecatedFields?: readonly DeprecatedFieldRow[];
  readonly fieldsets: readonly {
    readonly name: string;
    readonly description: string;
    readonly fields: readonly string[];
  }[];
  readonly searchIndexes: readonly {
    readonly name: string;
    readonly description: string;
    readonly personNames?: true;
  }[];
  readonly defaultIndex: string;
  readonly indicators: readonly string[];
  readonly defaultOrder: { readonly field: string; readonly direction: 'asc' | 'desc' };
}
