/**
 * The types of the storage layout's parts as a source declares them (`src/sources/<name>/
 * model.ts`): its table, link tables and full-text table, without the owner, which the
 * registry (`model/sources.ts`) adds. `storage.ts` re-exports them with the owner as the
 * `...Spec` types every store and the compiler read. Apart from `storage.ts` so a source's
 * declaration can name them without reaching the registry it is part of.
 */
import type { EntityName } from './types.ts';

/**
 * How a field is read through a link's entities (`LinkTableDecl.readThrough`): the entity
 * table's column, columns whose first non-NULL one holds the value, or `{ list }`: a list
 * field of the entity kept in a link table of its own (`{ list: 'types' }`, the
 * organizations' types in `organization_values`), every value of every linked entity.
 */
export type ReadThrough = string | readonly string[] | { readonly list: string };

/** `any` keeps each value's own type (integers stay integers): used for mixed-type value lists. */
export type ColumnType = 'text' | 'integer' | 'real' | 'any';

/** A scalar column of a source table; named exactly as the schema field it holds. */
export interface ColumnSpec {
  readonly name: string;
  readonly type: ColumnType;
  /**
   * Added to a table that existed before, by a migration's `ALTER TABLE ... ADD COLUMN`,
   * which puts it after every column the table had (the document too): the declared layout
   * puts it there as well, so that a new database and an upgraded one hold the same table.
   */
  readonly appended?: true;
  /** Holds a JSON text that a page returns parsed (a field of type `json` with a column). */
  readonly json?: true;
}

/**
 * A table linking a source row (by its integer `pk`) to another record's text id, as its
 * source declares it (`LinkTableSpec` in `storage.ts` adds the owner). Every
 * link table is `WITHOUT ROWID` with primary key (`<owner>_pk`, ...key columns), so the
 * rows of one record sit together (cheap to replace, cheap to read for a page of records),
 * plus one index from the target id back to the owner for filters and whole-corpus facets.
 */
export interface LinkTableDecl {
  readonly table: string;
  /** Columns after `<owner>_pk` in the primary key, in order. */
  readonly key: readonly ColumnSpec[];
  /** Further columns, not part of the key. */
  readonly extra: readonly ColumnSpec[];
  /** Columns of the reverse index (the owner pk is appended by SQLite automatically). */
  readonly reverse: readonly string[];
  /** The schema field(s) of the owner this table holds; the value is the last key column. */
  readonly holds: LinkHolds;
  /**
   * Columns of the owner's row copied onto each of its link rows (same names and types),
   * with an index `(reverse..., columns...)`: a filter on a value and on the owner's column
   * (`research_orgs.id = X and year in [A:B]`) is one range of that index instead of every
   * record of the value checked against its row; a page ordered by one of them is cut from
   * that index too (`compile/page-cut.ts`). `year` came with records migration 6 (SQLite)
   * and 4 (PostgreSQL), `date` with 9 and 7; the writers fill them with the link rows.
   */
  readonly ownerColumns?: readonly string[];
  /**
   * Fields read through the linked entities instead of being stored: field → the entity
   * table's column holding the value, or columns whose first non-NULL one does (a
   * publication's `research_org_countries` are the `country_code`s of the organizations its
   * `publication_research_orgs` rows link). Each record's values are the distinct non-NULL
   * ones. They were rows of `<owner>_values`, derived by `finish()`, until records migration
   * 10 (SQLite) and 8 (PostgreSQL): 12.8M rows and 590 MiB at 1M publications, each a copy
   * of one of 28,000 organizations' columns.
   */
  readonly readThrough?: Readonly<Record<string, ReadThrough>>;
  /**
   * The value (the last key column) is the integer id of a row of a vocabulary table that
   * holds the text once (`concept_names`), instead of the text in every link row and again in
   * the reverse index: 3,682 concept names for 7M rows at 1M publications. The writers give a
   * new text its id as they write the link rows; the compiler reads the field through the
   * vocabulary, as it reads `readThrough` fields through their entities.
   */
  readonly interned?: InternedValues;
  /**
   * Columns version 1 of the layout made after `extra` that a later migration dropped:
   * `score` of the concept links (records migration 13 in SQLite, 11 in PostgreSQL). Nothing
   * read it (the document's `concepts_scores` holds the scores a page shows and filters
   * test); without it `publication_concepts` took 82 MiB at 1M publications instead of 151.
   * `linkAsFirstBuilt` gives them back.
   */
  readonly dropped?: readonly ColumnSpec[];
  /**
   * Where a store that keeps posting lists (SQLite) holds the reverse side of the table
   * instead of the reverse index: one row per value, `(<value column> INTEGER PRIMARY KEY,
   * <column> BLOB NOT NULL)`, the owners' keys of its link rows as one list
   * (`store/sqlite/posting-lists.ts`). Records migration 16 replaced the reverse indexes of
   * the references (218 MiB at 1M publications, 11.9 bytes a link), the concepts (78 MiB)
   * and the researcher links (167 MiB) with them (48 MiB, 2.1 bytes a link; 12.5; 69.5).
   * Only for a table whose rows are `(owner, value)` alone: one key column, no
   * discriminator, no carried owner columns.
   */
  readonly postings?: PostingListsSpec;
  /**
   * Where a store that keeps lists by record (SQLite) holds the table's rows: one row per
   * record, `(<owner>_pk INTEGER PRIMARY KEY, <column> BLOB NOT NULL)`, its values as a
   * posting list; the link table's name is then a view that reads the lists as rows
   * `(<owner>_pk, value)`, so statements read it as they read the table. Records migration
   * 17 turned `publication_references` (218 MiB at 1M publications) into them, 18 the
   * concepts. Only for an interned table (a list holds integers) without carried owner columns.
   */
  readonly listed?: PostingListsSpec;
}

/**
 * A field of a source read from another source's link table the other way round, through a
 * view: grants' `resulting_publication_ids` are the publications whose
 * `publication_grants` rows name the grant. The view `(<singular>_pk, <other singular>_id)`
 * joins the link table to both source tables by id and pk, so it is always in step with the
 * links the other source's records write, and nothing writes it.
 */
export interface ReverseLinkDecl {
  /** The view's name, `<singular>_<what>` as a link table's. */
  readonly view: string;
  /** The schema field of the owner it holds (a multi-value field of text ids). */
  readonly field: string;
  /** The other source's link table whose one key column holds the owner's ids. */
  readonly of: string;
}

/** A link table's reverse side as posting lists (`LinkTableSpec.postings`). */
export interface PostingListsSpec {
  readonly table: string;
  /** The BLOB column holding each value's list of owner keys. */
  readonly column: string;
}

/**
 * A vocabulary table, `(id INTEGER PRIMARY KEY, <column> TEXT NOT NULL UNIQUE)`, whose ids
 * link tables hold (`LinkTableSpec.interned`). Link tables of the same vocabulary share it.
 * Ids are never reused or deleted: a text no record names any more keeps its row.
 */
export interface InternedValues {
  readonly table: string;
  readonly column: string;
  /**
   * The text key column the link tables had before they held ids (records migrations 11 and
   * 12 in SQLite, 9 and 10 in PostgreSQL, turned one into the other): what version 1 of the
   * layout made.
   */
  readonly replaced: string;
}

/**
 * Which fields a link table holds: one field (`publication_researchers` holds
 * `researchers`), or several told apart by a discriminator column (`publication_values`
 * rows with `field = 'issn'` hold `issn`; `publication_categories` rows with
 * `scheme = 'for'` hold `category_for`).
 */
export type LinkHolds =
  | {
      readonly field: string;
      /**
       * A per-entity count of linked records that the store keeps (researchers
       * `n_publications`): a facet over the whole source reads it instead of grouping links.
       */
      readonly countedIn?: string;
      /**
       * A field of entities the document holds as objects whose ids the table holds too
       * (patents' `publications`: the table holds `publication_ids` and the ids of those
       * objects, one set): filters and facets of that field by id read the table, not the
       * documents; its other sub-fields (`publications.doi`) stay in the document.
       */
      readonly idsOf?: string;
    }
  | {
      readonly discriminator: string;
      /** Field name → discriminator value. */
      readonly fields: Readonly<Record<string, string>>;
      /** Fields the store writes that are no schema field (organization `aliases`, for search), by name. */
      readonly unexposed?: readonly string[];
    };

/** A single entity held as an id column of the source row (`publications.journal_id`). */
export interface EntityColumnSpec {
  readonly column: string;
  readonly entity: EntityName;
  /** As `LinkHolds.countedIn`: the entity table's count of records naming it. */
  readonly countedIn?: string;
}

/**
 * A narrow side table of a source: the same `pk`, a copy of the few columns that filters,
 * facets and aggregates read most (year, date, citation metrics), and per-record link
 * counts (`n_researchers`: the rows of `publication_researchers` of the record). Facets,
 * aggregates and counts read it instead of the wide row with the document and abstract
 * (at 1M publications, 116 ms instead of 571 ms to fetch the rows of one word's 183k
 * matches), and `count(researchers) > 1` is a column test instead of grouping link rows.
 * The store keeps it in step with the source table and its links.
 */
export interface NarrowTableSpec {
  readonly table: string;
  /** Columns copied from the source row, same names and types (`id` included). */
  readonly columns: readonly string[];
  /** Link-table field → the column holding each record's count of its values. */
  readonly counts: Readonly<Record<string, string>>;
  /** Secondary indexes, each a list of columns (`pk` is in every entry already). */
  readonly indexes: readonly (readonly string[])[];
}

/**
 * The pre-aggregates of a source's per-year function (`citations_per_year` of publications,
 * `funding_per_year` of grants), built by `finish()` from the records and links: a table per
 * (record, year) that a filtered search sums over its matches, and a table of whole-corpus
 * totals per year that a search without filter reads as it is. Both hold only what the
 * direct SQL would compute from the records, so they are used only while the store's
 * `store_meta` row `fresh` is present: `finish()` (and the migration that adds them) writes
 * it, every write of the source's records deletes it, and until the next `finish()` the
 * compiler's fallback (the direct SQL over the links) answers.
 */
export interface PerYearTablesSpec {
  /** The per-year function these tables answer. */
  readonly function: 'citations_per_year' | 'funding_per_year';
  /** `store_meta.key` of the row present while the tables match the records. */
  readonly fresh: string;
  /**
   * `(<owner>_pk, year, ...columns)`, primary key `(<owner>_pk, year)` (`WITHOUT ROWID`
   * in SQLite): the rows of one record sit together, so the matches' rows are ranges.
   */
  readonly byRecord: { readonly table: string; readonly columns: readonly ColumnSpec[] };
  /** `(...key, year, ...columns)`, primary key `(...key, year)`: the whole corpus per year. */
  readonly corpus: {
    readonly table: string;
    readonly key: readonly ColumnSpec[];
    readonly columns: readonly ColumnSpec[];
  };
}

/** A source table: `pk INTEGER PRIMARY KEY`, `id TEXT UNIQUE`, scalar columns, `doc` JSON (`SourceTableSpec` adds its kind). */
export interface SourceTableDecl {
  readonly table: string;
  readonly columns: readonly ColumnSpec[];
  /** Secondary indexes, each a list of columns. */
  readonly indexes: readonly (readonly string[])[];
  /** Entity fields with one value, kept as an id column (schema field → column and entity). */
  readonly entityColumns?: Readonly<Record<string, EntityColumnSpec>>;
  /**
   * Entity kinds no source holds records of, which its records name with their display
   * fields (a dataset's `repository: {id, name}`, kept in the columns `repository_id` and
   * `repository_name`): kind → the column of the id, each display column's source column,
   * and the count of records naming it. `finish()` fills a table of each, named as the kind
   * (`model/storage.ts`, `namedEntityTables`); an entity column reads it as any entity table.
   */
  readonly namedEntities?: Readonly<
    Partial<
      Record<
        EntityName,
        {
          readonly id: string;
          readonly columns: Readonly<Record<string, string>>;
          readonly countedIn: string;
        }
      >
    >
  >;
  /**
   * Id columns naming a held record of another kind that a record may leave empty, which
   * `finish()` fills by finding that record by another column: `associated_publication_id`,
   * the publication whose `doi` is the dataset's `associated_publication_doi` (a record
   * imported before the publication it names). `object`: the field of `doc` holding the
   * link (`associated_publication`), whose `id` is filled with it, so that what reads the
   * object (a page, `associated_publication.id = ...`, its facet) sees the same id. A
   * column already holding an id is never changed.
   */
  readonly resolvedIds?: readonly {
    readonly column: string;
    readonly kind: string;
    readonly by: string;
    readonly match: string;
    readonly object?: string;
  }[];
  /** The narrow side table for facets, aggregates and counts, if the source has one. */
  readonly narrow?: NarrowTableSpec;
  /**
   * Columns whose number of records per value the store keeps (column → table), computed by
   * `finish()` as the entities' record counts are: a facet of that column over the whole
   * source (`search publications return year`) reads them instead of grouping every record.
   */
  readonly valueCounts?: Readonly<Record<string, string>>;
  /** The pre-aggregates of the source's per-year function, if it has one. */
  readonly perYear?: PerYearTablesSpec;
  /**
   * Long text columns that, like `doc`, the SQLite store keeps packed (deflated with a preset
   * dictionary: `store/sqlite/packed-text.ts`); SQL reads them through the dialect's
   * `storedText`. PostgreSQL compresses long values by itself (TOAST) and stores them plain.
   */
  readonly packedText?: readonly string[];
  /**
   * Long text columns the SQLite store keeps in a table of their own (column → table
   * `(pk INTEGER PRIMARY KEY, <column>)`, a row only for a record with a value), since
   * records migration 15. A row of about 1.1 KB left a seventh of each 4 KiB page of
   * `publications` empty (SQLite puts a whole row on a page or starts the next one); without
   * its abstract the row is about 700 bytes, and the rows of both tables together took 85 MiB
   * less at 1M publications (publications and grants; docs/storage.md, "Abstracts apart").
   * Only a page that shows the abstract, or a filter testing it, reads the second table.
   * PostgreSQL keeps them in the row.
   */
  readonly keptApart?: Readonly<Record<string, string>>;
}

/** A full-text table of a source: contentless FTS5 keyed by the source's `pk` (`FullTextSpec` adds the owner). */
export interface FullTextDecl {
  readonly table: string;
  readonly columns: readonly string[];
  /**
   * Full-text columns kept in a contentless FTS5 table of their own, keyed alike: columns added
   * to a source whose table exists. FTS5 cannot add a column to a table, and a contentless one
   * cannot give its texts back to rebuild it, so they go beside it (a records migration makes
   * the table and fills it from the records held). A search index reads one table: its columns
   * are all in `columns` or all here. PostgreSQL gives each index of them a vector column.
   */
  readonly apart?: { readonly table: string; readonly columns: readonly string[] };
  /** Search index name (spec/data-model.md) -> the FTS columns it searches. */
  readonly indexes: Readonly<Record<string, readonly string[]>>;
}
