/**
 * The full-text columns of the PostgreSQL layout, derived from `FULLTEXT_TABLES`. Each
 * source row carries one `tsvector` column `fts` holding every full-text column of the
 * source, each under a weight label (A, B, C, D in column order; later columns share D).
 * A search index whose columns are exactly the columns of some labels reads `fts` with
 * those labels (`title_only` = label A); any other index gets a vector column of its own
 * (`fts_authors`), so every index is one GIN-indexed column.
 */
import { FULLTEXT_TABLES, type FullTextSpec, type RecordKind } from './storage.ts';

const LABELS = ['A', 'B', 'C', 'D'] as const;
export type WeightLabel = (typeof LABELS)[number];

/** One tsvector column and the full-text columns it is built from, each with its label. */
export interface PgVectorColumn {
  readonly column: string;
  readonly parts: readonly { readonly text: string; readonly label: WeightLabel }[];
  /**
   * A vector of columns kept apart (`FullTextDecl.apart`): added to a table that existed, so
   * it sits after `doc`, where `ALTER TABLE ... ADD COLUMN` put it.
   */
  readonly added?: true;
}

/** Where a search index reads: a vector column, restricted to labels (absent: every label). */
export interface PgSearchIndex {
  readonly column: string;
  readonly labels?: string;
}

export interface PgFullText {
  readonly owner: RecordKind;
  readonly vectors: readonly PgVectorColumn[];
  readonly indexes: Readonly<Record<string, PgSearchIndex>>;
}

/** The main vector's column name. */
export const MAIN_VECTOR = 'fts';

function derive(spec: FullTextSpec): PgFullText {
  const labelOf = (i: number): WeightLabel => LABELS[Math.min(i, LABELS.length - 1)] as WeightLabel;
  const main: PgVectorColumn = {
    column: MAIN_VECTOR,
    parts: spec.columns.map((text, i) => ({ text, label: labelOf(i) })),
  };
  const vectors: PgVectorColumn[] = [main];
  const indexes: Record<string, PgSearchIndex> = {};
  for (const [index, columns] of Object.entries(spec.indexes)) {
    const wanted = new Set(columns);
    const labels = new Set(main.parts.filter((p) => wanted.has(p.text)).map((p) => p.label));
    const covered = main.parts.filter((p) => labels.has(p.label)).map((p) => p.text);
    if (covered.length === wanted.size && covered.every((c) => wanted.has(c))) {
      indexes[index] =
        labels.size === LABELS.length || covered.length === spec.columns.length
          ? { column: MAIN_VECTOR }
          : { column: MAIN_VECTOR, labels: [...labels].sort().join('') };
      continue;
    }
    const column = `${MAIN_VECTOR}_${columns.join('_')}`;
    const added = columns.some((c) => spec.apart?.columns.includes(c) === true);
    if (!vectors.some((v) => v.column === column))
      vectors.push({
        column,
        parts: columns.map((text) => ({ text, label: 'D' as const })),
        ...(added ? { added: true as const } : {}),
      });
    indexes[index] = { column };
  }
  return { owner: spec.owner, vectors, indexes };
}

export const PG_FULLTEXT: readonly PgFullText[] = FULLTEXT_TABLES.map(derive);

export function pgFullTextOf(kind: RecordKind): PgFullText | undefined {
  return PG_FULLTEXT.find((f) => f.owner === kind);
}

/**
 * PostgreSQL drops characters that are no letter or digit, so the gap between two people's
 * names (`NAME_GAP`, private-use characters to FTS5) is written as this word instead: it keeps
 * the same number of positions between names, and no real name contains it.
 */
export const PG_NAME_GAP_WORD = 'qqnamegapqq';
