/**
 * Version 1's open access categories (spec/sample-results 03; the hosted schema's
 * `open_access` entity, schema-2026.md §6): v1 named them by ids of its own (`gold_bronze`,
 * `gold_pure`, ...) where version 2 holds `bronze`, `gold`, ... . A v1 query filters and
 * facets `open_access_categories` by the v1 ids, so both directions are kept here, beside
 * the objects a v1 answer shows.
 */
export interface OpenAccessCategory {
  readonly id: string;
  readonly name: string;
  readonly description: string;
}

/**
 * The v1 object of each held (version-2) value. Descriptions the samples do not give are the
 * hosted 2025 texts of the v2 values. `green` keeps its own id: the held data does not say
 * which version of the copy a repository holds, which v1's `green_sub`/`green_acc`/
 * `green_pub` would claim.
 */
export const V1_OPEN_ACCESS_BY_HELD: Readonly<Record<string, OpenAccessCategory>> = {
  oa_all: { id: 'oa_all', name: 'All OA', description: 'Article is freely available' },
  bronze: {
    id: 'gold_bronze',
    name: 'Bronze',
    description: 'Freely available on publisher page, but without an open licence',
  },
  gold: { id: 'gold_pure', name: 'Pure Gold', description: 'Publication published in a full OA journal' },
  hybrid: {
    id: 'gold_hybrid',
    name: 'Hybrid',
    description: 'Publication freely available under an open licence in a paid-access journal',
  },
  green: { id: 'green', name: 'Green', description: 'Free copy of the publication available in an OA repository' },
  closed: { id: 'closed', name: 'Closed', description: 'No freely available copy has been identified' },
};

/**
 * The held value a v1 id stands for. v1's three green ids (submitted, accepted, published
 * version) all read the held `green`, the one green value the data has. A held value given
 * as it is (`bronze`) still means itself, as v1 queries written against v2 data do.
 */
const HELD_BY_V1_ID: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(V1_OPEN_ACCESS_BY_HELD).map(([held, category]) => [category.id, held])),
  green_sub: 'green',
  green_acc: 'green',
  green_pub: 'green',
};

/**
 * @example heldOpenAccessValue('gold_bronze') // 'bronze'
 * @example heldOpenAccessValue('bronze') // 'bronze'
 */
export function heldOpenAccessValue(value: string): string {
  return HELD_BY_V1_ID[value] ?? value;
}
