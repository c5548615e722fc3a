/**
 * A page cut from a link table's index. Under a filter whose records are link rows alone
 * (`research_orgs.id in [...] and year in [A:B]`: a `LinkKeySet`), a page ordered first by a
 * column those rows carry (`date`, newest first by default) need not read the record row of
 * every candidate to sort them: the link's index `(org_id, year, date)` holds each
 * candidate's sort value. The (skip + limit)-th value in page order, counted over the link
 * rows, is a bound every record of the page reaches, so only candidates at or before it are
 * read and sorted (at 1M publications, two organizations over three years: 19k candidates,
 * of which about 500 are read).
 *
 * Why the bound is safe: a record has at most `rowsPerRecord` of these rows (one per value
 * tested), so the first (skip + limit) × rowsPerRecord rows in order hold at least skip +
 * limit distinct records at or before the bound; a record after it has that many ahead of
 * it and cannot be on the page. Records without the value sort last in both engines
 * (`Dialect.sortTerm`): when the bound itself has none, or there are fewer rows than that,
 * nothing is cut.
 */
import { SOURCE_ALIAS } from './access.ts';
import type { Dialect } from './dialect.ts';
import type { LinkKeySet } from './filters.ts';
import type { SourceLayout } from './layout.ts';
import type { OrderPlan } from './plan.ts';
import { concat, frag, ident, joinSql, type Sql } from './sql.ts';

/**
 * The records of `set` that can be on the page of `reach` (skip + limit) records in `order`,
 * as a condition on `source`'s key; undefined when the order's first column is not on the
 * link rows or a record may have any number of them.
 *
 * @example pageCut(sqliteDialect, narrow, orgsAndYears, { by: 'default' }, 250)
 *   // s."pk" IN (WITH cut AS (SELECT l."date" AS v FROM "publication_research_orgs" l WHERE ...
 *   //   ORDER BY l."date" DESC LIMIT 1 OFFSET ?) SELECT l."publication_pk" FROM "publication_research_orgs" l
 *   //   WHERE ... AND coalesce(l."date" >= (SELECT v FROM cut), (SELECT v FROM cut) IS NULL))
 */
export function pageCut(
  dialect: Dialect,
  source: SourceLayout,
  set: LinkKeySet,
  order: OrderPlan,
  reach: number,
): Sql | undefined {
  if (set.rowsPerRecord === undefined || reach < 1) return undefined;
  const first = firstSortColumn(source, order);
  const value = first === undefined ? undefined : set.carried[first.column];
  if (first === undefined || value === undefined) return undefined;
  const bound = '(SELECT v FROM cut)';
  const atOrBefore = first.direction === 'desc' ? `${value} >= ${bound}` : `${value} <= ${bound}`;
  const rows = reach * set.rowsPerRecord;
  const inOrder = dialect.sortTerm(value, first.direction);
  // The bound is the rows-th value in page order: among all the rows (sorted whole), or
  // among the first `rows` of each segment (each read in index order), which hold the first
  // `rows` of all.
  const bounded =
    set.segments === undefined
      ? concat(`SELECT ${value} AS v FROM ${set.from} WHERE `, set.where, ` ORDER BY ${inOrder}`)
      : concat(
          'SELECT v FROM (',
          joinSql(
            set.segments.map((segment, i) =>
              concat(
                `SELECT * FROM (SELECT ${value} AS v FROM ${set.from} WHERE `,
                segment,
                ` ORDER BY ${inOrder} LIMIT `,
                frag(`?) AS segment${i}`, [rows]),
              ),
            ),
            ' UNION ALL ',
          ),
          `) AS segments ORDER BY ${dialect.sortTerm('v', first.direction)}`,
        );
  return concat(
    `${SOURCE_ALIAS}.${ident(source.key)} IN (WITH cut AS (`,
    bounded,
    ' LIMIT 1 OFFSET ',
    frag('?', [rows - 1]),
    `) SELECT ${set.key} FROM ${set.from} WHERE `,
    set.where,
    // A row without the value sorts after the bound; no bound (too few rows, or a bound
    // without a value) cuts nothing.
    ` AND coalesce(${atOrBefore}, ${bound} IS NULL))`,
  );
}

/** The column a page is ordered by first, and its direction (the source's default order for relevance without a match). */
function firstSortColumn(
  source: SourceLayout,
  order: OrderPlan,
): { readonly column: string; readonly direction: 'asc' | 'desc' } | undefined {
  if (order.by === 'field') {
    const column = source.columns[order.field];
    return column === undefined ? undefined : { column, direction: order.direction };
  }
  return source.defaultOrder[0];
}
