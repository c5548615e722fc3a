/**
 * PostgreSQL's full text: `tsvector` columns of the source row with GIN indexes
 * (`model/postgres-full-text.ts`: which column and weight labels each search index reads),
 * queries built by the one escaping function in `tsquery.ts`, `ts_rank` for relevance, and
 * each source's word list (`<source>_vocab`) for wildcard patterns.
 *
 * Relevance differs from SQLite's bm25: both rank records matching more of the query, and
 * more often, first; ties are broken the same way (record key, then id), but the two scores
 * are different formulas, so the order of a relevance page may differ between the engines.
 * Which records match, and how many, does not.
 */
import { pgFullTextOf } from '../../model/postgres-full-text.ts';
import type { RecordKind } from '../../model/storage.ts';
import { SOURCE_ALIAS } from '../access.ts';
import type { FullTextDialect, FullTextMatch } from '../dialect.ts';

import { concat, frag, ident } from '../sql.ts';
import { toTsQuery } from './tsquery.ts';

function columnOf(match: FullTextMatch & { kind: 'match' | 'except' }): string {
  if (match.column === undefined) throw new Error('a PostgreSQL full-text match names its vector column');
  return `${SOURCE_ALIAS}.${ident(match.column)}`;
}

const QUERY = "to_tsquery('simple', ?)";

export const postgresFullText: FullTextDialect = {
  match(source, plan, options): FullTextMatch {
    const layout = pgFullTextOf(source.table as RecordKind);
    const index = layout?.indexes[plan.index];
    if (layout === undefined || index === undefined)
      throw new Error(`no full-text index ${plan.index} on ${source.table}`);
    const m = toTsQuery(plan.expr, {
      ...(index.labels === undefined ? {} : { labels: index.labels }),
      expandPattern: (glob) => options.expandPattern(`${layout.owner}_vocab`, glob),
    });
    return m.kind === 'match' || m.kind === 'except'
      ? { kind: m.kind, query: m.query, column: index.column, table: source.table }
      : m;
  },

  /**
   * `s."fts" @@ to_tsquery('simple', $1)`: the GIN index finds the rows. On the narrow side
   * table, which has no vectors, the matching keys of the source table:
   * `s."pk" IN (SELECT "pk" FROM "publications" WHERE "fts" @@ ...)`.
   */
  restriction(source, match) {
    if (
      (match.kind === 'match' || match.kind === 'except') &&
      match.table !== undefined &&
      match.table !== source.table
    ) {
      if (match.column === undefined) throw new Error('a PostgreSQL full-text match names its vector column');
      const keys = `SELECT ${ident(source.key)} FROM ${ident(match.table)} WHERE ${ident(match.column)} @@ ${QUERY}`;
      const test = match.kind === 'match' ? 'IN' : 'NOT IN';
      return frag(`${SOURCE_ALIAS}.${ident(source.key)} ${test} (${keys})`, [match.query]);
    }
    switch (match.kind) {
      case 'match':
        return frag(`${columnOf(match)} @@ ${QUERY}`, [match.query]);
      case 'except':
        return frag(`NOT (${columnOf(match)} @@ ${QUERY})`, [match.query]);
      case 'none':
        return frag('FALSE');
      case 'all':
        return frag('TRUE');
    }
  },

  /** Matches with the negated rank, so ascending `score, k` is best first (as bm25's). */
  ranked(source, match, filter) {
    const s = SOURCE_ALIAS;
    const column = columnOf(match);
    return concat(
      frag(
        `SELECT ${s}.${ident(source.key)} AS k, -ts_rank(${column}, q) AS score FROM ${ident(source.table)} ${s} CROSS JOIN ${QUERY} q WHERE ${column} @@ q`,
        [match.query],
      ),
      filter === undefined ? '' : concat(' AND ', filter),
    );
  },

  /** No cheaper count than counting the matching records. */
  countMatches: () => undefined,
  /** The index does not hold the keys apart from the records. */
  matchingKeys: () => undefined,
};
