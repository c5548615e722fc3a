/**
 * `where` filters → a boolean SQL expression over the record aliased `s`. Every value is a
 * bound parameter. Predicates are two-valued (a missing value never yields NULL through
 * `not`), so `where X` and `where not X` always split the source exactly.
 */
import type { CompareOp, FilterPlan, PlanField, PlanValue } from './plan.ts';
import { accessField, documentText, SOURCE_ALIAS, type FieldAccess } from './access.ts';
import type { Dialect } from './dialect.ts';
import type { SourceLayout } from './layout.ts';
import { concat, frag, ident, joinSql, type Sql } from './sql.ts';

/**
 * @example compileFilter(sqliteDialect, pubs, { kind: 'range', field: year, low: 2013, high: 2018 })
 *   // { text: '(s."year" BETWEEN ? AND ?)', params: [2013, 2018] }
 * @example compileFilter(sqliteDialect, pubs, { kind: 'compare', field: researchOrgsId, op: '=', value: 'grid.1' })
 *   // { text: 'EXISTS (SELECT 1 FROM "publication_orgs" l WHERE l."record" = s."rowid" AND l."org_id" = ?)', params: ['grid.1'] }
 */
export function compileFilter(
  dialect: Dialect,
  source: SourceLayout,
  filter: FilterPlan,
  options: { readonly alone?: boolean; readonly siblings?: readonly FilterPlan[] } = {},
): Sql {
  switch (filter.kind) {
    case 'and': {
      const items = filter.items.map((f) => compileFilter(dialect, source, f, { siblings: filter.items }));
      // SQLite tests the terms an index does not serve in the order written: the tests that
      // unpack and parse the record document go last, after the cheap ones have ruled rows out.
      const document = documentText(dialect, source);
      const reads = (sql: Sql): boolean => sql.text.includes(document);
      return concat('(', joinSql([...items.filter((i) => !reads(i)), ...items.filter(reads)], ' AND '), ')');
    }
    case 'or':
      return concat(
        '(',
        joinSql(
          filter.items.map((f) => compileFilter(dialect, source, f)),
          ' OR ',
        ),
        ')',
      );
    case 'not':
      // IS NOT TRUE: a NULL inside (a missing value) counts as "not matching", so NOT keeps it.
      return concat('((', compileFilter(dialect, source, filter.item), ') IS NOT TRUE)');
    case 'compare':
    case 'in':
    case 'range': {
      const access = accessField(dialect, source, filter.field);
      return valueTest(access, filter, carriedTests(source, access, options.siblings));
    }
    case 'words': {
      const words = filter.words;
      if (words.length === 0) return frag(dialect.true);
      return onValue(accessField(dialect, source, filter.field), (v) =>
        joinSql(
          words.map((w) => frag(dialect.containsText(v), [`%${escapeLike(w)}%`])),
          ' AND ',
        ),
      );
    }
    case 'empty': {
      // A stored per-record count says it at once (a publication has references when its
      // `n_reference_ids` > 0), where a pass over the link rows costs seconds at 1M.
      const counted = storedCountTest(
        source,
        filter.field,
        filter.empty ? '= 0' : '> 0',
        readsCountPerRecord(filter, options),
      );
      if (counted !== undefined) return frag(counted);
      const access = accessField(dialect, source, filter.field, { presence: true });
      const test =
        access.kind === 'scalar'
          ? frag(scalarBlank(dialect, access))
          : access.keyed !== undefined
            ? frag(
                `${access.keyed.recordKey} NOT IN (SELECT ${access.keyed.key} FROM ${access.from} WHERE ${access.keyed.fixed})`,
              )
            : frag(`NOT EXISTS (SELECT 1 FROM ${access.from} WHERE ${access.correlate})`);
      return filter.empty ? test : concat('NOT ', test);
    }
    case 'count': {
      const counted = storedCountTest(
        source,
        filter.field,
        `${sqlOp(filter.op)} ?`,
        readsCountPerRecord(filter, options),
      );
      if (counted !== undefined) return frag(counted, [filter.value]);
      const access = accessField(dialect, source, filter.field, { presence: true });
      // Alone, one grouped pass over the link table beats a count per record; combined with
      // other conditions, counting only the records those leave is cheaper.
      if (options.alone === true && access.kind === 'multi' && access.keyed !== undefined) {
        return countByGroups(access.keyed, access.from, valueCount(access), filter.op, filter.value);
      }
      const count =
        access.kind === 'scalar'
          ? (access.present ?? dialect.isPresent(access.stored ?? access.expr))
          : `(SELECT ${valueCount(access)} FROM ${access.from} WHERE ${access.correlate})`;
      return frag(`${count} ${sqlOp(filter.op)} ?`, [filter.value]);
    }
    default:
      return assertNeverFilter(filter);
  }
}

/**
 * Whether a scalar field has no value: one lookup for a column kept apart (`present`), else
 * the stored value (packed text is never NULL or '', so nothing is unpacked).
 */
function scalarBlank(dialect: Dialect, access: Extract<FieldAccess, { kind: 'scalar' }>): string {
  return access.present !== undefined ? `NOT ${access.present}` : dialect.isBlank(access.stored ?? access.expr);
}

/**
 * `test` (`> ?`) on a stored per-record count of a link field: a column when `s` is the
 * narrow table, else the narrow table's row read per record (`perRecord`) or a key set of
 * the narrow table (its rows are short: scanning them costs less than grouping the link rows
 * or counting them per record).
 *
 * @example storedCountTest(pubs, researchers, '> ?', false) // 's."pk" IN (SELECT n."pk" FROM "publications_narrow" n WHERE n."n_researchers" > ?)'
 * @example storedCountTest(pubs, researchers, '> ?', true) // '(SELECT n."n_researchers" FROM "publications_narrow" n WHERE n."pk" = s."pk") > ?'
 */
function storedCountTest(source: SourceLayout, field: PlanField, test: string, perRecord: boolean): string | undefined {
  if (field.subfield !== undefined && field.subfield !== 'id') return undefined;
  const own = source.countColumns?.[field.name];
  if (own !== undefined) return `${SOURCE_ALIAS}.${ident(own)} ${test}`;
  const narrow = source.narrow;
  const column = narrow?.counts[field.name];
  if (narrow === undefined || column === undefined) return undefined;
  const key = ident(source.key);
  if (perRecord)
    return `(SELECT n.${ident(column)} FROM ${ident(narrow.table)} n WHERE n.${key} = ${SOURCE_ALIAS}.${key}) ${test}`;
  return `${SOURCE_ALIAS}.${key} IN (SELECT n.${key} FROM ${ident(narrow.table)} n WHERE n.${ident(column)} ${test})`;
}

/**
 * Whether a test of a stored count should read the record's narrow row (one lookup a record)
 * rather than the key set of every record passing it (one scan of the narrow table): when
 * another item of the same AND chooses the records first (`year = 2019 and reference_ids is
 * not empty` at 1M: 13 ms instead of 280 ms for the count, the key set holding 900k
 * records). Alone, under an OR, or beside full text, the key set is read: the statements of
 * a relevance page test the filter as a set of keys over the whole corpus, and a lookup for
 * every record costs more there (0.6 s at 1M against 0.06–0.3 s).
 */
function readsCountPerRecord(filter: FilterPlan, options: { readonly siblings?: readonly FilterPlan[] }): boolean {
  return (options.siblings ?? []).some((s) => s !== filter && s.kind !== 'empty' && s.kind !== 'count');
}

/**
 * `count(field) op N` over a link table, as one grouped pass over the table (its rows are
 * stored by record) instead of one count per record. Records without links have count 0:
 * when 0 satisfies the test they qualify unless their group fails it.
 */
function countByGroups(
  keyed: NonNullable<Extract<FieldAccess, { kind: 'multi' }>['keyed']>,
  from: string,
  count: string,
  op: CompareOp,
  n: number,
): Sql {
  const zeroPasses = compareNumbers(0, op, n);
  const groups = `SELECT ${keyed.key} FROM ${from} WHERE ${keyed.fixed} GROUP BY ${keyed.key} HAVING `;
  if (zeroPasses) return frag(`${keyed.recordKey} NOT IN (${groups}NOT (${count} ${sqlOp(op)} ?))`, [n]);
  return frag(`${keyed.recordKey} IN (${groups}${count} ${sqlOp(op)} ?)`, [n]);
}

/** How many values a record's rows hold: one a row, unless the rows may repeat one. */
function valueCount(access: Extract<FieldAccess, { kind: 'multi' }>): string {
  return access.repeats === true ? `count(DISTINCT ${access.value})` : 'count(*)';
}

function compareNumbers(a: number, op: CompareOp, b: number): boolean {
  switch (op) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '>':
      return a > b;
    case '<':
      return a < b;
    case '>=':
      return a >= b;
    case '<=':
      return a <= b;
  }
}

type ValueFilter = Extract<FilterPlan, { kind: 'compare' | 'in' | 'range' }>;

/** A comparison, list or range on one field; `narrowing` (on the link row) joins a link table's key set. */
function valueTest(access: FieldAccess, filter: ValueFilter, narrowing?: Sql): Sql {
  switch (filter.kind) {
    case 'compare':
      return compare(access, filter.field, filter.op, filter.value, narrowing);
    case 'in': {
      const values = filter.values.map((v) => coerce(filter.field, v));
      const marks = values.map(() => '?').join(', ');
      return onValue(access, (v) => frag(`${v} IN (${marks})`, values), narrowing);
    }
    case 'range': {
      const low = coerce(filter.field, filter.low);
      const high = coerce(filter.field, filter.high);
      return onValue(access, (v) => frag(`${v} BETWEEN ? AND ?`, [low, high]), narrowing);
    }
  }
}

/**
 * A filter that is a positive test of one link table's values (`research_orgs.id in [...]`)
 * and, beside it, only tests of record columns the link rows carry (`year`): the records it
 * keeps are exactly the distinct keys of the link rows passing both (a record's link rows
 * carry its year), so the link's covering index answers for them without any record row.
 */
export interface LinkKeySet {
  /** `"publication_research_orgs" l` */
  readonly from: string;
  /** The record key on the link row: `l."publication_pk"`. */
  readonly key: string;
  /** The link rows that stand for the records: the discriminator, the value test, the carried tests. */
  readonly where: Sql;
  /** The carried columns on the link row, by the record's column name: `{ date: 'l."date"' }`. */
  readonly carried: Readonly<Record<string, string>>;
  /**
   * The most of these rows one record can have: the number of values tested (`=` one, `in`
   * its list's length); undefined for a range or a comparison, which may pass many.
   */
  readonly rowsPerRecord: number | undefined;
  /**
   * The same rows as disjoint ranges of the link's index `(value, year, date)`: one per tested
   * value and year, when the values are listed (`=`, `in`) and the only other test is of an
   * integer year that names at most `MAX_SEGMENTS` pairs (`year in [2023:2025]`). Each range
   * is read in date order, so the first rows by date are found range by range without
   * sorting them all (`page-cut.ts`).
   */
  readonly segments?: readonly Sql[];
}

/** The most (value, year) ranges a key set is split into; past it the rows are sorted whole. */
export const MAX_SEGMENTS = 32;

/** The filter's records as link rows alone, when it is a `LinkKeySet`; undefined for any other filter. */
export function linkKeySet(dialect: Dialect, source: SourceLayout, filter: FilterPlan): LinkKeySet | undefined {
  const items = filter.kind === 'and' ? filter.items : [filter];
  const entries = items.filter((f) => linkValueTest(source, f));
  if (entries.length !== 1) return undefined;
  const entry = entries[0] as FilterPlan & { kind: 'compare' | 'in' | 'range' };
  const access = accessField(dialect, source, entry.field);
  if (access.kind !== 'multi' || access.keyed === undefined || access.keyed.entity !== undefined) return undefined;
  const others = items.filter((f) => f !== entry);
  // Every other item must be one the link rows carry, or the key set would keep records it fails.
  const carried = others.map((f) => carriedTests(source, access, [f]));
  if (carried.some((t) => t === undefined)) return undefined;
  const k = access.keyed;
  return {
    from: k.byValue,
    key: k.key,
    where: concat(
      `${k.fixed} AND `,
      joinSql([valueTest({ kind: 'scalar', expr: access.value }, entry), ...(carried as Sql[])], ' AND '),
    ),
    carried: k.carried ?? {},
    rowsPerRecord:
      entry.kind === 'in' ? entry.values.length : entry.kind === 'compare' && entry.op === '=' ? 1 : undefined,
    ...segmentsOf(source, access, entry, others),
  };
}

/** `LinkKeySet.segments` for a value test and the tests beside it, when they name few enough (value, year) pairs. */
function segmentsOf(
  source: SourceLayout,
  access: FieldAccess & { kind: 'multi' },
  entry: ValueFilter,
  others: readonly FilterPlan[],
): { segments?: readonly Sql[] } {
  const k = access.keyed;
  const values = listed(entry);
  // The ranges are of the index (value, first carried column, ...).
  const [first, column] = Object.entries(k?.carried ?? {})[0] ?? [];
  const other = others[0];
  if (k === undefined || values === undefined || column === undefined || other === undefined || others.length !== 1)
    return {};
  if (other.kind !== 'compare' && other.kind !== 'in' && other.kind !== 'range') return {};
  if (other.field.type !== 'integer' || source.columns[other.field.name] !== first) return {};
  const years = listed(other) ?? integerRange(other);
  if (years === undefined || !years.every((y) => Number.isInteger(y))) return {};
  if (values.length === 0 || years.length === 0 || values.length * years.length > MAX_SEGMENTS) return {};
  return {
    segments: values.flatMap((value) =>
      years.map((year) => frag(`${k.fixed} AND ${access.value} = ? AND ${column} = ?`, [value, year])),
    ),
  };
}

/** The distinct values a test names (`=` one, `in` its list), coerced as the test binds them. */
function listed(f: ValueFilter): PlanValue[] | undefined {
  if (f.kind === 'in') return [...new Set(f.values.map((v) => coerce(f.field, v)))];
  if (f.kind === 'compare' && f.op === '=') return [coerce(f.field, f.value)];
  return undefined;
}

/** The integers of a closed range (`[2023:2025]`), up to `MAX_SEGMENTS` of them. */
function integerRange(f: ValueFilter): number[] | undefined {
  if (f.kind !== 'range') return undefined;
  const [low, high] = [coerce(f.field, f.low), coerce(f.field, f.high)];
  if (!Number.isInteger(low) || !Number.isInteger(high) || (high as number) - (low as number) >= MAX_SEGMENTS)
    return undefined;
  return Array.from({ length: Math.max(0, (high as number) - (low as number) + 1) }, (_, i) => (low as number) + i);
}

/** The keys of a `LinkKeySet`'s link rows, a record's key once per row it has (column `k`). */
export function linkRowKeys(set: LinkKeySet): Sql {
  return concat(`SELECT ${set.key} AS k FROM ${set.from} WHERE `, set.where);
}

/**
 * The number of records a `LinkKeySet` filter keeps, read from the link's covering index
 * instead of every candidate's record row (at 1M publications, two organizations over three
 * years: 1.6 ms instead of 4.3 ms).
 *
 * @example linkKeyCount(linkKeySet(sqliteDialect, pubs, orgsAndYears))
 *   // SELECT count(DISTINCT l."publication_pk") AS n FROM "publication_research_orgs" l
 *   //   WHERE 1 AND (l."org_id" IN (?, ?)) AND (l."year" BETWEEN ? AND ?)
 */
export function linkKeyCount(set: LinkKeySet): Sql {
  // One value tested: a record has at most one of the rows, so they need no telling apart
  // (count(DISTINCT) keeps every key in a temporary B-tree).
  const counted = set.rowsPerRecord === 1 ? 'count(*)' : `count(DISTINCT ${set.key})`;
  return concat(`SELECT ${counted} AS n FROM ${set.from} WHERE `, set.where);
}

/** A positive test of a link field's values themselves (not an entity sub-field, not JSON). */
function linkValueTest(source: SourceLayout, f: FilterPlan): boolean {
  if (f.kind !== 'compare' && f.kind !== 'in' && f.kind !== 'range') return false;
  if (f.kind === 'compare' && f.op === '!=') return false;
  if (f.field.type === 'json') return false;
  if (f.field.subfield !== undefined && f.field.subfield !== 'id') return false;
  return source.links[f.field.name] !== undefined || source.idLinks?.[f.field.name] !== undefined;
}

/**
 * The tests among `siblings` (the other items of an AND) on record columns that the link
 * rows carry (`year` on `publication_research_orgs`), written on the link row: the key set
 * is then read from the index `(value, year)` as one range instead of every record of the
 * value. The tests stay on the record too, so the result is the same either way.
 *
 * @example carriedTests(pubs, orgAccess, [orgIs, yearIn2019To2020]) // { text: '(l."year" BETWEEN ? AND ?)', params: [2019, 2020] }
 */
function carriedTests(
  source: SourceLayout,
  access: FieldAccess,
  siblings: readonly FilterPlan[] | undefined,
): Sql | undefined {
  const carried = access.kind === 'multi' ? access.keyed?.carried : undefined;
  if (carried === undefined || siblings === undefined) return undefined;
  const tests = siblings.flatMap((f) => {
    if (f.kind !== 'compare' && f.kind !== 'in' && f.kind !== 'range') return [];
    // `!=` lets a missing value through: nothing to narrow by.
    if (f.field.multi || f.field.subfield !== undefined || (f.kind === 'compare' && f.op === '!=')) return [];
    const column = source.columns[f.field.name];
    const expr = column === undefined ? undefined : carried[column];
    return expr === undefined ? [] : [valueTest({ kind: 'scalar', expr }, f)];
  });
  return tests.length === 0 ? undefined : joinSql(tests, ' AND ');
}

function compare(access: FieldAccess, field: PlanField, op: CompareOp, raw: PlanValue, narrowing?: Sql): Sql {
  const value = coerce(field, raw);
  if (op === '!=') {
    // "does not equal / does not contain": records without the value qualify.
    if (access.kind === 'scalar') return frag(`(${access.expr} IS NULL OR ${access.expr} != ?)`, [value]);
    return concat(
      'NOT ',
      onValue(access, (v) => frag(`${caseless(field, v)} = ?`, [caselessValue(field, value)])),
    );
  }
  if (op === '=' && field.type === 'json') {
    return onValue(access, (v) => frag(`${caseless(field, v)} = ?`, [caselessValue(field, value)]), narrowing);
  }
  return onValue(access, (v) => frag(`${v} ${sqlOp(op)} ?`, [value]), narrowing);
}

/**
 * Applies a per-value test: directly for one value; for several ("contains") as a key set
 * of the link table (`s.pk IN (SELECT ...)`, driven by its reverse index), or as EXISTS.
 */
function onValue(access: FieldAccess, test: (value: string) => Sql, narrowing?: Sql): Sql {
  if (access.kind === 'scalar') return concat('(', test(access.expr), ')');
  if (access.keyed !== undefined) {
    const k = access.keyed;
    const narrowed = narrowing === undefined ? [] : [' AND ', narrowing];
    if (k.entity !== undefined) {
      const e = k.entity;
      return concat(
        `${k.recordKey} IN (SELECT ${k.key} FROM ${e.linkFrom} WHERE ${k.fixed} AND ${e.linkValue} IN (SELECT ${e.id} FROM ${e.from} WHERE `,
        test(e.value),
        ')',
        ...narrowed,
        ')',
      );
    }
    return concat(
      `${k.recordKey} IN (SELECT ${k.key} FROM ${k.byValue} WHERE ${k.fixed} AND `,
      test(access.value),
      ...narrowed,
      ')',
    );
  }
  return concat(`EXISTS (SELECT 1 FROM ${access.from} WHERE ${access.correlate} AND `, test(access.value), ')');
}

/** JSON fields (authors, concepts) compare their values without regard to case. */
function caseless(field: PlanField, expr: string): string {
  return field.type === 'json' ? `lower(${expr})` : expr;
}

function caselessValue(field: PlanField, value: PlanValue): PlanValue {
  return field.type === 'json' && typeof value === 'string' ? value.toLowerCase() : value;
}

function sqlOp(op: CompareOp): string {
  return op === '!=' ? '!=' : op;
}

/** Numbers for numeric fields (`year = "2019"`), strings otherwise; partial dates normalise to the first day. */
export function coerce(field: PlanField, value: PlanValue): PlanValue {
  const type = field.subfield !== undefined && field.subfield !== 'id' ? 'string' : field.type;
  if (
    (type === 'integer' || type === 'float') &&
    typeof value === 'string' &&
    value.trim() !== '' &&
    Number.isFinite(Number(value))
  ) {
    return Number(value);
  }
  if (type === 'date' && typeof value === 'string') {
    if (/^\d{4}$/.test(value)) return `${value}-01-01`;
    if (/^\d{4}-\d{2}$/.test(value)) return `${value}-01`;
  }
  if (type === 'string' && typeof value === 'number') return String(value);
  return value;
}

function escapeLike(word: string): string {
  return word.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function assertNeverFilter(value: never): never {
  throw new Error(`Unhandled filter: ${JSON.stringify(value)}`);
}
