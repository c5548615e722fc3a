/**
 * Version 1's `open_access_categories` in answers: objects `{id, name, description}` for
 * records (the hosted v1 answer in spec/sample-results 03) and facet rows by the v1 ids,
 * read from the held version-2 `open_access` values (schema/open-access-v1.ts).
 */
import { V1_OPEN_ACCESS_BY_HELD } from '../schema/open-access-v1.ts';

/**
 * @example openAccessCategories(['oa_all', 'bronze'])
 * // [{ id: 'oa_all', name: 'All OA', ... }, { id: 'gold_bronze', name: 'Bronze', ... }]
 */
export function openAccessCategories(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((v: unknown) =>
    typeof v === 'string' ? (V1_OPEN_ACCESS_BY_HELD[v] ?? { id: v, name: v, description: null }) : v,
  );
}

/**
 * A facet row of `open_access_categories` by its v1 id, with the entity's display field
 * `name` after the count, as the hosted service's entity facet rows are written.
 *
 * @example openAccessFacetRow({ id: 'bronze', count: 3 }) // { id: 'gold_bronze', count: 3, name: 'Bronze' }
 */
export function openAccessFacetRow(row: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const category = typeof row.id === 'string' ? V1_OPEN_ACCESS_BY_HELD[row.id] : undefined;
  if (category === undefined) return { ...row };
  const { id: _held, count, ...rest } = row;
  return { id: category.id, count, ...rest, name: category.name };
}

/**
 * A facet's rows by the v1 ids (`openAccessFacetRow`), rows of equal `sortBy` value again in
 * the order of their (v1) ids, as facet ties are ordered.
 */
export function openAccessFacetRows(
  rows: readonly Readonly<Record<string, unknown>>[],
  sortBy: string,
): Record<string, unknown>[] {
  const out = rows.map(openAccessFacetRow);
  const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.id).localeCompare(String(b.id));
  for (let start = 0; start < out.length;) {
    let end = start + 1;
    while (end < out.length && out[end]?.[sortBy] === out[start]?.[sortBy]) end++;
    out.splice(start, end - start, ...out.slice(start, end).sort(byId));
    start = end;
  }
  return out;
}
