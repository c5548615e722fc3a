/**
 * The full-text part of a search: the FTS5 MATCH string (through the one escaping function
 * in `fts5.ts`) and the restriction it puts on the source's rows.
 */
import type { FullTextPlan } from '../plan.ts';
import { SOURCE_ALIAS } from './access.ts';
import { toFts5Match, type Fts5Match } from './fts5.ts';
import type { SourceLayout } from '../layout.ts';
import { frag, ident, type Sql } from './sql.ts';

export interface FullTextOptions {
  /** Index vocabulary lookup for wildcard patterns (GLOB form) → matching tokens. */
  readonly expandPattern: (vocabTable: string, glob: string) => readonly string[];
}

export function fullTextMatch(source: SourceLayout, plan: FullTextPlan, options: FullTextOptions): Fts5Match {
  const fts = source.fts;
  if (fts === undefined) throw new Error(`source table ${source.table} has no full-text index`);
  const columns = fts.indexes[plan.index];
  if (columns === undefined) throw new Error(`unknown full-text index ${plan.index}`);
  return toFts5Match(plan.expr, {
    ...(columns === null ? {} : { columns }),
    expandPattern: (glob) => options.expandPattern(`${fts.table}_vocab`, glob),
  });
}

/**
 * The rows a full-text match allows, as a condition on `s`:
 * `s."pk" IN (SELECT rowid FROM "publications_fts" WHERE "publications_fts" MATCH ?)`.
 */
export function fullTextRestriction(source: SourceLayout, match: Fts5Match): Sql {
  const fts = source.fts;
  if (fts === undefined) throw new Error(`source table ${source.table} has no full-text index`);
  const key = `${SOURCE_ALIAS}.${ident(source.key)}`;
  const sub = `SELECT rowid FROM ${ident(fts.table)} WHERE ${ident(fts.table)} MATCH ?`;
  switch (match.kind) {
    case 'match':
      return frag(`${key} IN (${sub})`, [match.match]);
    case 'except':
      return frag(`${key} NOT IN (${sub})`, [match.match]);
    case 'none':
      return frag('0');
    case 'all':
      return frag('1');
  }
}
