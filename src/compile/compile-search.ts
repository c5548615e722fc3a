/**
 * The base compiler: SearchPlan → the statements that answer it, in one dialect. One COUNT
 * over the filtered set for `_stats.total_count`, and one statement per return (records
 * page, facet, citations). Shapes are written once here and in the files it calls; only the
 * pieces in `dialect.ts` differ between SQLite and PostgreSQL.
 */
import { documentText, SOURCE_ALIAS } from './access.ts';
import { columnConditions } from './column-conditions.ts';
import { compileCitationsPerYear, compileFundingPerYear, type CompiledPerYear } from './citations.ts';
import type { Dialect, FullTextMatch, FullTextOptions } from './dialect.ts';
import { compileFacet, type CompiledFacet } from './facets.ts';
import { compileFilter, linkKeyCount, linkKeySet, linkRowKeys, type LinkKeySet } from './filters.ts';
import { narrowFor, narrowForKeys, orderServed } from './narrow.ts';
import type { SourceLayout, StorageLayout } from './layout.ts';
import { pageCut } from './page-cut.ts';
import type { RecordsOutput, SearchPlan } from './plan.ts';
import { compileRecords, type CompiledRecords, type PageKeys } from './records.ts';
import { concat, frag, ident, joinSql, type Sql } from './sql.ts';

export type { CompiledFacet } from './facets.ts';
export type { CompiledPerYear } from './citations.ts';
export type { CompiledRecords, HydrateStep } from './records.ts';

export interface CompiledSearch {
  /** Statements to run first, in order, on the connection that runs the others (`Dialect.matchKeys`). */
  readonly prelude?: readonly Sql[];
  readonly count: Sql;
  /**
   * When `count` counts the distinct keys of link rows (`count(DISTINCT l.publication_pk)`
   * over a link index): those rows' keys, repeats and all, as column `k`. SQLite keeps every
   * key of a count(DISTINCT) in a temporary B-tree (at 1M, two organizations over three
   * years: 10.5 ms for 19k rows); an engine that counts them itself reads them joined into
   * one value instead (1.7 ms).
   */
  readonly countKeys?: Sql;
  readonly outputs: ReadonlyArray<CompiledRecords | CompiledFacet | CompiledPerYear>;
}

export type CompileOptions = FullTextOptions;

/**
 * @example compileSearch(sqliteDialect, RECORDS_LAYOUT, plan, { expandPattern })
 *   // count: SELECT count(*) AS n FROM "publications" s WHERE (s."year" = ?) AND s."pk" IN (SELECT rowid FROM ... MATCH ?)
 */
export function compileSearch(
  dialect: Dialect,
  layout: StorageLayout,
  plan: SearchPlan,
  options: CompileOptions,
): CompiledSearch {
  const source = layout.sources[plan.source];
  if (source === undefined) throw new Error(`no storage layout for source ${plan.source}`);
  const match: FullTextMatch | undefined =
    plan.fullText === undefined ? undefined : dialect.fullText.match(source, plan.fullText, options);
  // Counts, facets and aggregates read the narrow side table when it has every field they
  // touch (short rows: no document, no abstract); record pages read the wide rows.
  // A filter entered through a link table's keys checks each candidate against its row: the
  // narrow rows then also count the matches and choose the pages' keys.
  const keyed = narrowForKeys(source, plan);
  const aggregated = narrowFor(source, plan) ?? keyed ?? source;
  const tested = conditions(dialect, source, plan, match);
  const once = aggregated === source && plan.outputs.length > 0 ? testedOnce(dialect, source, tested) : undefined;
  const wide = once?.conditions ?? tested;
  const lean = aggregated === source ? wide : conditions(dialect, aggregated, plan, match);
  const countMatches =
    wide.filter === undefined && match?.kind === 'match' ? dialect.fullText.countMatches(source, match) : undefined;
  // A filter whose records are link rows alone: counted, and pages cut, on the link's index.
  const linkKeys =
    match === undefined && plan.filter !== undefined ? linkKeySet(dialect, source, plan.filter) : undefined;
  const countLinks = linkKeys === undefined ? undefined : linkKeyCount(linkKeys);
  const count =
    countMatches ??
    countLinks ??
    (lean.where === undefined
      ? // No WHERE at all: SQLite then counts a B-tree's entries page by page (about 1 ms at
        // 1M rows) instead of stepping through every row (about 20 ms), even for `WHERE 1`.
        frag(`SELECT count(*) AS n FROM ${ident(aggregated.table)}`)
      : concat(`SELECT count(*) AS n FROM ${ident(aggregated.table)} ${SOURCE_ALIAS} WHERE `, lean.where));
  const leanWhere = lean.where ?? frag(dialect.true);
  // The same records as the count's, read from the full-text index alone when it can.
  const matchingKeys =
    wide.filter === undefined && match?.kind === 'match' ? dialect.fullText.matchingKeys(source, match) : undefined;
  // The filter as tests of number columns, for engines that hold the columns in memory.
  const columnTests =
    match === undefined && plan.filter !== undefined ? columnConditions(aggregated, plan.filter) : undefined;
  const outputs = plan.outputs.map((output) => {
    if (output.kind === 'facet')
      return compileFacet(dialect, layout, aggregated, output, leanWhere, lean.where === undefined, {
        ...(matchingKeys === undefined ? {} : { matchingKeys }),
        ...(columnTests === undefined ? {} : { conditions: columnTests }),
      });
    if (output.kind === 'citations_per_year')
      return compileCitationsPerYear(dialect, aggregated, output, leanWhere, lean.where === undefined);
    if (output.kind === 'funding_per_year')
      return compileFundingPerYear(dialect, aggregated, output, leanWhere, lean.where === undefined);
    // The relevance page ranks the index's matches itself; its restriction keeps only the filter.
    const ranked = output.order.by === 'relevance' && match?.kind === 'match';
    const pageWhere = ranked ? wide.filter : wide.where;
    const keys =
      !ranked &&
      keyed !== undefined &&
      aggregated.table === keyed.table &&
      lean.where !== undefined &&
      orderServed(aggregated, output.order)
        ? choosePageKeys(dialect, aggregated, lean.where, linkKeys, output)
        : undefined;
    return compileRecords(dialect, layout, source, output, pageWhere, match, keys);
  });
  const prelude = once?.prelude.map((p) => ({ text: dialect.placeholders(p.text), params: p.params }));
  if (plan.uncounted === true)
    return {
      ...(prelude === undefined ? {} : { prelude }),
      count: { text: 'SELECT -1 AS n', params: [] },
      outputs: outputs.map((o) => (o.kind === 'records' ? { ...o, totalFromPage: 'never' as const } : o)),
    };
  const countKeys =
    count === countLinks && linkKeys !== undefined && linkKeys.rowsPerRecord !== 1 ? linkRowKeys(linkKeys) : undefined;
  return {
    ...(prelude === undefined ? {} : { prelude }),
    count: { text: dialect.placeholders(count.text), params: count.params },
    ...(countKeys === undefined
      ? {}
      : { countKeys: { text: dialect.placeholders(countKeys.text), params: countKeys.params } }),
    outputs,
  };
}

/**
 * Where a page under a filter entered through a link table chooses its keys: the narrow
 * rows the filter keeps, or, when the link rows alone stand for the records and carry the
 * page's first sort column, only those that can reach the page (`page-cut.ts`).
 */
function choosePageKeys(
  dialect: Dialect,
  narrow: SourceLayout,
  where: Sql,
  linkKeys: LinkKeySet | undefined,
  output: RecordsOutput,
): PageKeys {
  const cut =
    linkKeys === undefined ? undefined : pageCut(dialect, narrow, linkKeys, output.order, output.skip + output.limit);
  return cut === undefined ? { source: narrow, where } : { source: narrow, where: cut, cut: true };
}

/**
 * A filter that reads the record document unpacks and parses the document of every row it
 * tests, and every statement of the search (the count, each page, facet and per-year
 * output) tests it again: four facets under `authors != "zzqq"` unpacked each document five
 * times. Where the dialect can keep a search's matching keys (`Dialect.matchKeys`), the
 * filter (with the full-text restriction) is tested once, first, and every statement reads
 * the keys instead. The same records match: the keys are exactly those the conditions select.
 */
function testedOnce(
  dialect: Dialect,
  source: SourceLayout,
  tested: { filter: Sql | undefined; where: Sql | undefined },
): { prelude: readonly Sql[]; conditions: { filter: Sql; where: Sql } } | undefined {
  if (dialect.matchKeys === undefined || tested.where === undefined) return undefined;
  if (!tested.where.text.includes(documentText(dialect, source))) return undefined;
  const keys = dialect.matchKeys(source, tested.where);
  // The keys hold the restriction too, so they serve as the filter of a ranked page as well.
  return { prelude: keys.prelude, conditions: { filter: keys.where, where: keys.where } };
}

/** The filter and the full-text restriction of `plan` on the table `source` describes, and both joined. */
function conditions(
  dialect: Dialect,
  source: SourceLayout,
  plan: SearchPlan,
  match: FullTextMatch | undefined,
): { filter: Sql | undefined; where: Sql | undefined } {
  const filter =
    plan.filter === undefined
      ? undefined
      : compileFilter(dialect, source, plan.filter, { alone: plan.fullText === undefined });
  const restriction = match === undefined ? undefined : dialect.fullText.restriction(source, match);
  const parts = [filter, restriction].filter((p): p is Sql => p !== undefined);
  return { filter, where: parts.length === 0 ? undefined : joinSql(parts, ' AND ') };
}
