/**
 * What the console draws for a facet result (`return year aggregate citations_total`): which
 * columns are indicators, which one the chart shows first (the one asked for: an aggregated
 * indicator before `count`), year facets in year order as a line, and columns ordered so the
 * label and the indicators come first and are never pushed out of view.
 */

/** A facet row as the API answers it: an `id`, a `count`, maybe a label and other indicators. */
export type FacetRow = Readonly<Record<string, unknown>>;

/**
 * The indicator columns of facet rows: `count` first, then the other numeric columns in the
 * order the server wrote them (`id` and, when the schema's indicator names are known, any
 * column that is not one of them are left out).
 *
 * @example facetIndicators([{ id: 'g1', count: 3, name: 'F', funding: 10 }]) // ['count', 'funding']
 */
export function facetIndicators(rows: readonly FacetRow[], known?: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const row of rows) {
    for (const [key, value] of Object.entries(row)) {
      if (key === 'id' || typeof value !== 'number') continue;
      if (known && key !== 'count' && !known.has(key)) continue;
      out.add(key);
    }
  }
  return [...out].sort((a, b) => (a === 'count' ? -1 : b === 'count' ? 1 : 0));
}

/** The indicator to chart first: the first one asked for besides `count`, else `count`. */
export function defaultIndicator(indicators: readonly string[]): string {
  return indicators.find((name) => name !== 'count') ?? indicators[0] ?? 'count';
}

/** A facet over years (`year`, `start_year`, ...), whose ids are calendar years. */
export function isYearFacet(name: string, rows: readonly FacetRow[]): boolean {
  const last = name.split('.').pop() ?? name;
  return (
    /(^|_)year$/.test(last) &&
    rows.length > 0 &&
    rows.every((row) => Number.isInteger(Number(row.id)) && Number(row.id) >= 1000 && Number(row.id) <= 9999)
  );
}

/** The rows in chart order: years ascending for a year facet, otherwise as the server sorted them. */
export function chartRows(name: string, rows: readonly FacetRow[]): FacetRow[] {
  return isYearFacet(name, rows) ? [...rows].sort((a, b) => Number(a.id) - Number(b.id)) : [...rows];
}

const LABEL_COLUMNS = ['name', 'first_name', 'last_name', 'title'];

/**
 * Table columns for facet rows: `id`, the label columns, the indicators, then the rest.
 *
 * @example facetColumns(['id', 'count', 'name', 'city', 'funding'], ['count', 'funding'])
 * // ['id', 'name', 'count', 'funding', 'city']
 */
export function facetColumns(columns: readonly string[], indicators: readonly string[]): string[] {
  const first = [
    ...columns.filter((c) => c === 'id'),
    ...LABEL_COLUMNS.filter((c) => columns.includes(c)),
    ...indicators.filter((c) => columns.includes(c)),
  ];
  return [...first, ...columns.filter((c) => !first.includes(c))];
}

const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const DECIMAL = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/**
 * A number as a table shows it: thousands grouped, at most two decimals; identifiers and
 * years as written (2,021 would be wrong).
 *
 * @example formatNumber('funding', 58341169.5) // '58,341,169.5'
 */
export function formatNumber(column: string, value: number): string {
  const last = column.split('.').pop() ?? column;
  if (last === 'id' || /(^|_)(year|id)$/.test(last)) return String(value);
  return Number.isInteger(value) ? INTEGER.format(value) : DECIMAL.format(value);
}
