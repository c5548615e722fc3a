/**
 * How the records of each source sit in the database, as far as the compiler needs it
 * (derived from the model's storage layout in `records-layout.ts`; the same for every
 * dialect). The compiler reads fields through this description: a field with a column or a link table
 * uses it (indexed, fast); any other field is read from the record's JSON document, so
 * every field the schema allows can be filtered, returned and faceted.
 */

/** A multi-value (or entity) field kept in its own table, one row per (record, value). */
export interface LinkLayout {
  readonly table: string;
  /** Column holding the record key (the source table's `key`). */
  readonly recordColumn: string;
  /** Column holding the value (the entity id for entity fields). */
  readonly valueColumn: string;
  /** Entity table to join for sub-field filters (`research_orgs.name`). */
  readonly entity?: EntityLayout;
  /** Entity kind for display (`organizations`): a key of `StorageLayout.entities`. */
  readonly entityKind?: string;
  /**
   * A per-entity count of linked records kept up to date by the store (e.g. researchers
   * `n_publications`): a facet over the whole source reads it instead of grouping links.
   */
  readonly wholeSourceCount?: { readonly table: string; readonly idColumn: string; readonly countColumn: string };
  /**
   * The values are numbers (an `integer` or `float` field, `active_year`), which a store may
   * hand back as text: PostgreSQL's `<owner>_values.value` is text for every field. A page
   * shows them as numbers, as a facet does.
   */
  readonly numeric?: true;
  /** A shared link table holds several fields: rows of this field have `column = value`. */
  readonly discriminator?: { readonly column: string; readonly value: string };
  /**
   * Columns of the record copied onto each link row (the same names, e.g. `year`), indexed
   * after the value: a filter also testing them narrows the link rows it reads.
   */
  readonly ownerColumns?: readonly string[];
  /**
   * The link rows by value are kept as posting lists (`table`: the value, then `column`: the
   * keys of its records) where the dialect's store does so (`Dialect.postingRows`), instead
   * of a reverse index: `linkRowsByValue` (`access.ts`) reads them as link rows.
   */
  readonly postings?: { readonly table: string; readonly column: string };
  /**
   * The field is not stored: its values are read from the entities the link rows name
   * (`valueColumn` = `table.idColumn`), the first non-NULL of `columns`, the distinct
   * non-NULL ones of each record (`research_org_countries` through
   * `publication_research_orgs` and `organizations.country_code`). `entity`, if any, is
   * then the entity those values name (`countries`). An interned field is read the same way
   * through its vocabulary (`concepts` through `concept_names.name`), one value per id.
   */
  readonly through?: {
    readonly table: string;
    readonly idColumn: string;
    readonly columns: readonly string[];
    /**
     * The table is a vocabulary (`LinkTableSpec.interned`): each id has its own value, so the
     * link rows of a record never name one value twice and need no de-duplication.
     */
    readonly vocabulary?: boolean;
    /**
     * The values are a list of each entity kept in a link table of the entity's table
     * (`research_org_types`: the organizations' `types` in `organization_values`), read by
     * one more join on the entity row's key; `columns` is then empty.
     */
    readonly list?: EntityList;
  };
}

export interface EntityLayout {
  readonly table: string;
  readonly idColumn: string;
  /** Entity sub-field → column (`name` → `name`). */
  readonly columns: Readonly<Record<string, string>>;
  /** Column with the entity's JSON document (for display fields without a column). */
  readonly document?: string;
  /**
   * Entity sub-field → the list kept in a link table of the entity (`research_orgs.types`
   * in `organization_values`): a filter on it joins that table instead of reading a JSON
   * document that holds only the ids.
   */
  readonly lists?: Readonly<Record<string, EntityList>>;
}

export interface FtsLayout {
  /** The FTS5 table; its rowid is the source table's `key`. */
  readonly table: string;
  /** Search index → FTS5 columns it covers (`null`: all columns of its table). */
  readonly indexes: Readonly<Record<string, readonly string[] | null>>;
  /** Search index → the FTS5 table it reads when not `table` (columns kept apart), keyed alike. */
  readonly tables?: Readonly<Record<string, string>>;
}

export interface SourceLayout {
  readonly table: string;
  /** Integer key column that link tables and the FTS rowid refer to. */
  readonly key: string;
  /** Column holding the full record as JSON (the native record shape). Read through `dialect.storedText`. */
  readonly document: string;
  /** Columns besides `document` the store may keep packed: read through `dialect.storedText`. */
  readonly packed?: readonly string[];
  /**
   * Columns a store may keep in a table of their own, keyed by `key` (column → table):
   * read through `sourceColumn` (`access.ts`), which looks them up there when the dialect's
   * store does so (`Dialect.columnsApart`).
   */
  readonly apart?: Readonly<Record<string, string>>;
  /** Scalar field → column. */
  readonly columns: Readonly<Record<string, string>>;
  /** Columns of `columns` holding JSON text, which a page returns parsed (`JSON_COLUMN_PREFIX`). */
  readonly jsonColumns?: readonly string[];
  /**
   * One entity the document holds as an object whose id a column also keeps (a dataset's
   * `associated_publication` → `associated_publication_id`): field → column. Filters and
   * facets read the indexed column; pages still show the document's object.
   */
  readonly idColumns?: Readonly<Record<string, string>>;
  /** Multi-value or entity field → link table. */
  readonly links: Readonly<Record<string, LinkLayout>>;
  /**
   * Entities the document holds as objects whose ids a link table holds too (patents'
   * `publications`, in the table of `publication_ids`): field → that table. Tests of their
   * ids and facets read it; presence and counts still read the objects, some of which name
   * no held record (only a DOI or PMID).
   */
  readonly idLinks?: Readonly<Record<string, LinkLayout>>;
  /** Entity fields with one value (`journal`) kept as an id column, with the entity table. */
  readonly entityColumns: Readonly<
    Record<
      string,
      {
        readonly column: string;
        readonly entity: EntityLayout;
        readonly entityKind: string;
        readonly wholeSourceCount?: { readonly table: string; readonly idColumn: string; readonly countColumn: string };
      }
    >
  >;
  readonly fts?: FtsLayout;
  /**
   * The source's narrow side table (`model/storage.ts`, NarrowTableSpec): the same keys, the
   * fields that have a column in it, and per-record counts of link fields. Counts, facets and
   * aggregates read it when every field they touch is there (`narrow.ts`).
   */
  readonly narrow?: NarrowLayout;
  /**
   * The pre-aggregates of the source's per-year function (`model/storage.ts`,
   * PerYearTablesSpec), read instead of the links while their freshness row is present.
   */
  readonly perYear?: PerYearLayout;
  /**
   * Scalar field → the store's count of records per value (`SourceTableSpec.valueCounts`),
   * kept by `finish()`: a facet over the whole source reads it instead of grouping the records.
   */
  readonly valueCounts?: Readonly<
    Record<string, { readonly table: string; readonly valueColumn: string; readonly countColumn: string }>
  >;
  /** Link field → this table's per-record count column (set on a narrow table's view only). */
  readonly countColumns?: Readonly<Record<string, string>>;
  /** The default order without full text, as columns (most significant first). */
  readonly defaultOrder: ReadonlyArray<{ readonly column: string; readonly direction: 'asc' | 'desc' }>;
}

/**
 * A source's per-year tables: `byRecord` (`recordColumn`, `year`, then `citations`, or
 * `shares` and `years`) and `corpus` (`year`, `citations`; or `currency`, `year`, `amount`
 * for the `currencies` it holds), valid while `store_meta` has the row `fresh`.
 */
export interface PerYearLayout {
  readonly function: 'citations_per_year' | 'funding_per_year';
  /** The `store_meta` key present while the tables match the records. */
  readonly fresh: string;
  readonly byRecord: { readonly table: string; readonly recordColumn: string };
  readonly corpus: { readonly table: string; readonly currencies: readonly string[] };
}

export interface NarrowLayout {
  readonly table: string;
  /** Scalar field → column (the same names as in the source table). */
  readonly columns: Readonly<Record<string, string>>;
  /** Link field → column holding each record's count of its values. */
  readonly counts: Readonly<Record<string, string>>;
}

/** How to show an entity in a facet row or a returned record: output key → column. */
export interface EntityDisplay {
  readonly table: string;
  readonly idColumn: string;
  /** Output key → column of `table`. */
  readonly columns: Readonly<Record<string, string>>;
  /**
   * Output key → a list kept in a link table of the entity: its `*_values` table by `field`
   * (organization `types`), or a link table of its own (researcher `research_orgs`).
   */
  readonly lists?: Readonly<Record<string, EntityList>>;
}

/** A list of an entity kept in a link table of the entity's table. */
export interface EntityList {
  readonly table: string;
  readonly ownerColumn: string;
  readonly entityKey: string;
  /** The value column (`value`, `org_id`). */
  readonly valueColumn: string;
  /** The `field` discriminator of a `*_values` table; absent for a link table of one field. */
  readonly field?: string;
}

/** Result columns holding a JSON list are named with this prefix; the engine parses them. */
export const LIST_COLUMN_PREFIX = '__list_';

/** A page's columns holding a field's JSON text are named with this prefix; the engine parses them. */
export const JSON_COLUMN_PREFIX = '__json_';

export interface StorageLayout {
  readonly sources: Readonly<Record<string, SourceLayout>>;
  /** Entity kind (`organizations`, `categories`, ...) → how to display it. */
  readonly entities: Readonly<Record<string, EntityDisplay>>;
}
