/**
 * Link facets from memory on a SQLite connection. SQLite answers a facet over a link field
 * by joining each match to its link rows and grouping them in a temporary B-tree: at 1M
 * publications, 200-600 ms for a word's matches or a `count()` filter. Here the link field
 * and the indicator columns are read once into arrays (`engine/columnar/`), and a facet
 * asks SQLite only for the matching keys, then counts and sums over the arrays.
 *
 * The arrays belong to one data epoch (`store/sqlite/data-epoch.ts`): a write gives the
 * records a new epoch, and the next facet drops them and reads them again. They are read
 * on first use, within a memory budget: a link field or column that would take the held
 * arrays past it is not read, and facets over it stay with SQL.
 */
import type Database from 'better-sqlite3';
import type { ColumnarFacetPlan, CompiledFacet } from '../../../compile/facets.ts';
import { ident } from '../../../compile/sql.ts';
import { dataEpochReader } from '../../../store/sqlite/data-epoch.ts';
import { aggregateFacet, type FacetRow, type Measure } from '../../columnar/facet-aggregation.ts';
import { buildLinkColumnFromGroups, linkColumnBytes, type LinkColumn } from '../../columnar/link-column.ts';
import { keysPassing, numberTest } from '../../columnar/column-filter.ts';
import type { StatementCache } from './statement-cache.ts';

/** The arrays one connection may hold (at 1M publications, two link fields and three columns take about 45 MiB). */
export const DEFAULT_COLUMNS_BUDGET_BYTES = 96 * 2 ** 20;

export interface ColumnarFacetsOptions {
  /** The most the held arrays may take, in bytes. */
  readonly budgetBytes?: number;
}

/** The facet's rows, and the matching keys it read (their number is the search's total). */
export interface ColumnarFacetResult {
  readonly rows: FacetRow[];
  readonly matched: number | undefined;
}

export class ColumnarFacets {
  readonly #db: Database.Database;
  readonly #epoch: () => string;
  readonly #budget: number;
  #heldEpoch: string | undefined;
  #heldBytes = 0;
  /** Link columns and number columns by name; null marks one over the budget. */
  readonly #links = new Map<string, LinkColumn | null>();
  readonly #columns = new Map<string, Float64Array | null>();

  constructor(db: Database.Database, options: ColumnarFacetsOptions = {}) {
    this.#db = db;
    this.#epoch = dataEpochReader(db);
    this.#budget = options.budgetBytes ?? DEFAULT_COLUMNS_BUDGET_BYTES;
  }

  /** Bytes of the arrays held now. */
  get heldBytes(): number {
    return this.#heldBytes;
  }

  /** The facet's rows from memory, or undefined when it stays with SQL. */
  /**
   * `search` holds the matching keys already read for this search: its facets share one
   * condition, so a search with three facets reads them once, not three times.
   */
  rows(
    statements: StatementCache,
    compiled: CompiledFacet,
    search: Map<string, Int32Array> = new Map(),
  ): ColumnarFacetResult | undefined {
    const plan = compiled.columnar;
    if (plan === undefined) return undefined;
    this.#checkEpoch();
    const link = this.#link(plan.link);
    if (link === null) return undefined;
    const measures: Measure[] = [];
    for (const m of plan.measures) {
      const column = this.#column(plan.columns, m.column);
      if (column === null) return undefined;
      measures.push({ name: m.name, aggregation: m.aggregation, integer: m.integer, column });
    }
    const matches = plan.keys === undefined ? undefined : this.#matches(statements, plan, plan.keys, search);
    const rows = aggregateFacet({
      link,
      matches,
      measures,
      sortBy: compiled.output.sortBy,
      direction: compiled.output.direction,
      limit: compiled.output.limit,
    });
    return { rows, matched: matches?.length };
  }

  #matches(
    statements: StatementCache,
    plan: ColumnarFacetPlan,
    keys: NonNullable<ColumnarFacetPlan['keys']>,
    search: Map<string, Int32Array>,
  ): Int32Array {
    const name = `${keys.text}\0${JSON.stringify(keys.params)}`;
    let matches = search.get(name);
    if (matches === undefined) {
      matches = this.#matchesFromColumns(plan) ?? matchingKeys(statements, keys.text, keys.params);
      search.set(name, matches);
    }
    return matches;
  }

  /**
   * The keys passing the facet's filter, tested on held columns when the filter is only tests
   * of number columns (at 1M, `count(researchers) > 1` scans one array instead of SQLite
   * scanning the narrow table and handing over 850k keys); undefined when it is not, or a
   * column does not fit the budget.
   */
  #matchesFromColumns(plan: ColumnarFacetPlan): Int32Array | undefined {
    if (plan.conditions === undefined || plan.conditions.length === 0) return undefined;
    const tests: Array<{ column: Float64Array; passes: (x: number) => boolean }> = [];
    for (const condition of plan.conditions) {
      const column = this.#column(plan.columns, condition.column);
      if (column === null) return undefined;
      tests.push({ column, passes: numberTest(condition.test) });
    }
    return keysPassing(tests);
  }

  /** Drops what was read under another epoch: the records changed since. */
  #checkEpoch(): void {
    const epoch = this.#epoch();
    if (epoch === this.#heldEpoch) return;
    this.#links.clear();
    this.#columns.clear();
    this.#heldBytes = 0;
    this.#heldEpoch = epoch;
  }

  #link(spec: ColumnarFacetPlan['link']): LinkColumn | null {
    const name = `${spec.table}.${spec.valueColumn}.${spec.discriminator?.value ?? ''}.${spec.through?.value ?? ''}`;
    let column = this.#links.get(name);
    if (column !== undefined) return column;
    const where = spec.discriminator === undefined ? '' : ` WHERE ${ident(spec.discriminator.column)} = ?`;
    const params = spec.discriminator === undefined ? [] : [spec.discriminator.value];
    const table = ident(spec.table);
    const rows = this.#db
      .prepare(`SELECT count(*) FROM ${table}${where}`)
      .pluck()
      .get(...params) as number;
    const values =
      spec.entityTable === undefined
        ? 0
        : (this.#db
            .prepare(`SELECT count(*) FROM ${ident(spec.entityTable)}`)
            .pluck()
            .get() as number);
    column = null;
    // Before reading any: four bytes a row (the ordinals), and about 40 bytes a value when
    // every entity is linked (at 1M publications the researchers' 1.85M ids would take more
    // than a worker's share, and are not read).
    if (this.#heldBytes + rows * 4 + values * 40 <= this.#budget) {
      // One row per value, its records' keys joined (28k rows at 1M publications instead of
      // 2.27M), in SQLite's own order of the values: the ordinals follow it (the facet's tie-break).
      const record = ident(spec.recordColumn);
      const through = spec.through;
      // Values read through the entities (`research_org_countries`): several link rows of a
      // record may name one value, and each key is kept once.
      const groupsSql =
        through === undefined
          ? `SELECT ${ident(spec.valueColumn)}, CAST(group_concat(${record}) AS BLOB) FROM ${table}${where} GROUP BY 1 ORDER BY 1`
          : `SELECT ${through.value}, CAST(group_concat(DISTINCT l.${record}) AS BLOB) FROM ${table} l` +
            ` JOIN ${ident(through.table)} t ON t.${ident(through.idColumn)} = l.${ident(spec.valueColumn)}${through.join}` +
            ` WHERE ${through.value} IS NOT NULL GROUP BY 1 ORDER BY 1`;
      const read = this.#db.prepare(groupsSql).raw();
      const groups = read.iterate(...params) as Iterable<[unknown, Uint8Array | null]>;
      const built = buildLinkColumnFromGroups(
        (function* () {
          for (const [id, keys] of groups) yield [id, parseKeys(keys ?? new Uint8Array(0))] as const;
        })(),
      );
      const bytes = linkColumnBytes(built);
      if (this.#heldBytes + bytes <= this.#budget) {
        column = built;
        this.#heldBytes += bytes;
      }
    }
    this.#links.set(name, column);
    return column;
  }

  #column(source: ColumnarFacetPlan['columns'], name: string): Float64Array | null {
    const id = `${source.table}.${name}`;
    let column = this.#columns.get(id);
    if (column !== undefined) return column;
    const key = ident(source.key);
    const table = ident(source.table);
    const maxKey = (this.#db.prepare(`SELECT max(${key}) FROM ${table}`).pluck().get() as number | null) ?? -1;
    const bytes = (maxKey + 1) * Float64Array.BYTES_PER_ELEMENT;
    column = null;
    if (this.#heldBytes + bytes <= this.#budget) {
      column = new Float64Array(maxKey + 1).fill(NaN);
      const read = this.#db
        .prepare(`SELECT ${key}, ${ident(name)} FROM ${table} WHERE ${ident(name)} IS NOT NULL`)
        .raw();
      for (const [k, v] of read.iterate() as Iterable<[number, number]>) column[k] = Number(v);
      this.#heldBytes += bytes;
    }
    this.#columns.set(id, column);
    return column;
  }
}

/**
 * The keys a statement selects (one integer column `k`), as one typed array. SQLite joins
 * them into one text (`group_concat`), handed over as bytes, and this parses it: at 1M
 * publications 850k keys take about 70 ms, against several hundred handed over one row
 * at a time.
 */
export function matchingKeys(statements: StatementCache, sql: string, params: readonly unknown[]): Int32Array {
  const joined = statements
    .get(`SELECT CAST(group_concat(k) AS BLOB) AS keys FROM (${sql})`)
    .pluck()
    .get(...params) as Uint8Array | null | undefined;
  return parseKeys(joined ?? new Uint8Array(0));
}

/** The ASCII bytes of `"12,7,300"` → [12, 7, 300], in one pass. */
export function parseKeys(joined: Uint8Array): Int32Array {
  if (joined.length === 0) return new Int32Array(0);
  // Every key takes at least two bytes (a digit and a comma) but the last.
  const keys = new Int32Array((joined.length >> 1) + 1);
  let n = 0;
  let value = 0;
  for (let i = 0; i < joined.length; i++) {
    const c = joined[i] as number;
    if (c === 44) {
      keys[n++] = value;
      value = 0;
    } else if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
    } else {
      const near = Buffer.from(joined.subarray(Math.max(0, i - 20), i + 20)).toString('latin1');
      throw new Error(`a record key is not a non-negative integer: ${near}`);
    }
  }
  keys[n++] = value;
  return keys.subarray(0, n);
}
