/**
 * The organizations' `ultimate_parent_id` and `hierarchy_details`, derived by `finish()` from
 * the parent/child relationships the held organizations record (ROR's `parent`/`child`
 * relationships become `organization_parent_ids` / `organization_child_ids`). The same walk
 * serves both engines: each reads the relationships, this computes, each writes the columns.
 *
 * A relationship is known from either side: the child naming its parent, or the parent naming
 * the child (ROR dumps are not always symmetric). An id named but not held takes part too;
 * nothing beyond it is known. Every walk remembers the organizations it passed, so a cycle in
 * the data ends it instead of looping.
 */
import { VALUE_FIELD_CODES } from '../model/storage.ts';

/** One organization's relationships as held: its own lists of parents and children. */
export interface HeldRelationships {
  readonly id: string;
  readonly parentIds: readonly string[];
  readonly childIds: readonly string[];
}

/** What `hierarchy_details` holds (docs/language.md, "organizations"). */
export interface HierarchyDetails {
  /** Direct parents, from either side of the relationship, sorted. */
  readonly parent_ids: readonly string[];
  /** Direct children, from either side of the relationship, sorted. */
  readonly child_ids: readonly string[];
  /**
   * The parent chain that `ultimate_parent_id` tops, top first, the direct parent last: at
   * each step up, the parent with the smallest id.
   */
  readonly ancestor_ids: readonly string[];
  /** Everything below, level by level (each level sorted), without the organization itself. */
  readonly descendant_ids: readonly string[];
  /** The length of `ancestor_ids`: 0 for an organization without parents. */
  readonly depth: number;
}

export interface OrganizationHierarchy {
  /** The top of the parent chain; the organization's own id when it has no parent. */
  readonly ultimate_parent_id: string;
  readonly hierarchy_details: HierarchyDetails;
}

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Id → set of ids, adding `to` under `from`. */
function link(map: Map<string, Set<string>>, from: string, to: string): void {
  if (from === to) return;
  const set = map.get(from);
  if (set === undefined) map.set(from, new Set([to]));
  else set.add(to);
}

const sorted = (ids: ReadonlySet<string> | undefined): string[] => (ids === undefined ? [] : [...ids].sort(byId));

/** The hierarchy of every held organization, by id. */
export function organizationHierarchies(held: Iterable<HeldRelationships>): Map<string, OrganizationHierarchy> {
  const parents = new Map<string, Set<string>>();
  const children = new Map<string, Set<string>>();
  const ids: string[] = [];
  for (const org of held) {
    ids.push(org.id);
    for (const parent of org.parentIds) {
      link(parents, org.id, parent);
      link(children, parent, org.id);
    }
    for (const child of org.childIds) {
      link(children, org.id, child);
      link(parents, child, org.id);
    }
  }
  const parentsOf = (id: string): string[] => sorted(parents.get(id));
  const childrenOf = (id: string): string[] => sorted(children.get(id));

  const result = new Map<string, OrganizationHierarchy>();
  for (const id of ids) {
    // Up through the smallest parent id at each step, stopping before an organization passed already.
    const chain: string[] = [];
    const passed = new Set<string>([id]);
    for (let at = id; ;) {
      const next = parentsOf(at).find((p) => !passed.has(p));
      if (next === undefined) break;
      passed.add(next);
      chain.push(next);
      at = next;
    }
    // Down, level by level, each organization once.
    const descendants: string[] = [];
    const seen = new Set<string>([id]);
    for (let level = [id]; level.length > 0;) {
      const next: string[] = [];
      for (const at of level)
        for (const child of childrenOf(at))
          if (!seen.has(child)) {
            seen.add(child);
            next.push(child);
          }
      next.sort(byId);
      descendants.push(...next);
      level = next;
    }
    const ancestors = chain.reverse();
    result.set(id, {
      ultimate_parent_id: ancestors[0] ?? id,
      hierarchy_details: {
        parent_ids: parentsOf(id),
        child_ids: childrenOf(id),
        ancestor_ids: ancestors,
        descendant_ids: descendants,
        depth: ancestors.length,
      },
    });
  }
  return result;
}

const PARENT_CODE = code('organization_parent_ids');
const CHILD_CODE = code('organization_child_ids');

function code(field: string): string {
  const stored = VALUE_FIELD_CODES[field];
  if (stored === undefined) throw new Error(`no stored code for ${field}`);
  return stored;
}

/**
 * Every held organization with its relationship values, one row a value (the organization
 * once with `field` and `value` NULL when it has none): the same statement on both engines.
 */
export const RELATIONSHIPS_SQL =
  `SELECT o.id AS id, v.field AS field, v.value AS value FROM organizations o ` +
  `LEFT JOIN organization_values v ON v.organization_pk = o.pk AND v.field IN ('${PARENT_CODE}', '${CHILD_CODE}') ` +
  `ORDER BY o.pk`;

/** A row of `RELATIONSHIPS_SQL`. */
export interface HeldRelationshipRow {
  readonly id: string;
  readonly field: string | null;
  readonly value: unknown;
}

/** The rows of `RELATIONSHIPS_SQL`, folded into one `HeldRelationships` per organization. */
export function heldRelationships(rows: Iterable<HeldRelationshipRow>): HeldRelationships[] {
  const byOrg = new Map<string, { id: string; parentIds: string[]; childIds: string[] }>();
  for (const { id, field, value } of rows) {
    let org = byOrg.get(id);
    if (org === undefined) byOrg.set(id, (org = { id, parentIds: [], childIds: [] }));
    // Ids are text; a value of another type is no organization's id.
    if (typeof value !== 'string') continue;
    if (field === PARENT_CODE) org.parentIds.push(value);
    else if (field === CHILD_CODE) org.childIds.push(value);
  }
  return [...byOrg.values()];
}
