/**
 * SQLite's full text: one contentless FTS5 table per source (rowid = the record key; columns
 * added later sit in a second one, read by the indexes over them), the
 * MATCH string built by the one escaping function in `fts5.ts`, bm25 for relevance, and
 * the fts5vocab table for wildcard patterns.
 */
import type { FullTextDialect, FullTextMatch } from '../dialect.ts';
import { SOURCE_ALIAS } from '../access.ts';
import type { SourceLayout } from '../layout.ts';
import { concat, frag, ident } from '../sql.ts';
import { toFts5Match } from './fts5.ts';

function ftsOf(source: SourceLayout): NonNullable<SourceLayout['fts']> {
  const fts = source.fts;
  if (fts === undefined) throw new Error(`source table ${source.table} has no full-text index`);
  return fts;
}

/** The FTS5 table a match reads: the index's own table (columns kept apart), else the source's. */
function tableOf(source: SourceLayout, match: FullTextMatch): string {
  return (match.kind === 'match' || match.kind === 'except' ? match.table : undefined) ?? ftsOf(source).table;
}

export const sqliteFullText: FullTextDialect = {
  match(source, plan, options): FullTextMatch {
    const fts = ftsOf(source);
    const columns = fts.indexes[plan.index];
    if (columns === undefined) throw new Error(`unknown full-text index ${plan.index}`);
    const table = fts.tables?.[plan.index];
    const m = toFts5Match(plan.expr, {
      ...(columns === null ? {} : { columns }),
      expandPattern: (glob) => options.expandPattern(`${table ?? fts.table}_vocab`, glob),
    });
    return m.kind === 'match' || m.kind === 'except'
      ? { kind: m.kind, query: m.match, ...(table === undefined ? {} : { table }) }
      : m;
  },

  /** `s."pk" IN (SELECT rowid FROM "publications_fts" WHERE "publications_fts" MATCH ?)`. */
  restriction(source, match) {
    const table = tableOf(source, match);
    const key = `${SOURCE_ALIAS}.${ident(source.key)}`;
    const sub = `SELECT rowid FROM ${ident(table)} WHERE ${ident(table)} MATCH ?`;
    switch (match.kind) {
      case 'match':
        return frag(`${key} IN (${sub})`, [match.query]);
      case 'except':
        return frag(`${key} NOT IN (${sub})`, [match.query]);
      case 'none':
        return frag('0');
      case 'all':
        return frag('1');
    }
  },

  /**
   * Ranks inside the FTS table and keeps only keys and scores, so the records (wide rows)
   * are read for one page, not for every match. The unary `+` keeps SQLite from handing the
   * filter's key set to FTS5 as rowid constraints (one MATCH per key).
   */
  ranked(source, match, filter) {
    const f = ident(tableOf(source, match));
    const s = SOURCE_ALIAS;
    const restrict =
      filter === undefined
        ? frag('')
        : concat(
            ` AND +${f}.rowid IN (SELECT ${s}.${ident(source.key)} FROM ${ident(source.table)} ${s} WHERE `,
            filter,
            ')',
          );
    return concat(
      frag(`SELECT ${f}.rowid AS k, bm25(${f}) AS score FROM ${f} WHERE ${f} MATCH ?`, [match.query]),
      restrict,
    );
  },

  /** Every FTS row is a record (rowid = key): count the matches without touching the records. */
  countMatches(source, match) {
    const f = ident(tableOf(source, match));
    return frag(`SELECT count(*) AS n FROM ${f} WHERE ${f} MATCH ?`, [match.query]);
  },
  // The FTS rowid is the record key: no lookup of each match's row.
  matchingKeys(source, match) {
    const f = ident(tableOf(source, match));
    return frag(`SELECT rowid AS k FROM ${f} WHERE ${f} MATCH ?`, [match.query]);
  },
};
