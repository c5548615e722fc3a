/**
 * Version 1's `open_access_categories`: objects `{id, name, description}` (the hosted v1
 * answer in spec/sample-results 03), read from the held version-2 `open_access` values.
 * The v1 ids and names come from the hosted schema's `open_access` entity (schema-2026.md
 * §6); descriptions the samples do not give are the hosted 2025 texts of the v2 values.
 * `green` keeps its own id: the held data does not say which version of the copy a
 * repository holds, which v1's `green_sub`/`green_acc`/`green_pub` would claim.
 */
export interface OpenAccessCategory {
  readonly id: string;
  readonly name: string;
  readonly description: string;
}

const BY_V2_VALUE: Readonly<Record<string, OpenAccessCategory>> = {
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
 * @example openAccessCategories(['oa_all', 'bronze'])
 * // [{ id: 'oa_all', name: 'All OA', ... }, { id: 'gold_bronze', name: 'Bronze', ... }]
 */
export function openAccessCategories(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((v: unknown) =>
    typeof v === 'string' ? (BY_V2_VALUE[v] ?? { id: v, name: v, description: null }) : v,
  );
}
