/**
 * Publications' author objects in the hosted service's shape (spec/schema-2026.md §6.4):
 * every key it sends is present, whatever the record holds, so clients that build columns
 * from the first author, or read a key without checking, see the same objects as there.
 * The hosted service writes a missing author-level text as `""` (`orcid`, `researcher_id`,
 * `current_organization_id`, `corresponding`) and a missing affiliation value as `null`
 * (`state`, `state_code`); lists are empty rather than missing. Two author values are text
 * there whatever they hold: `orcid` is the printed form of a list (`"['0000-0001-8223-3200']"`,
 * spec/sample-results 03 and 08) and `corresponding` is `"true"` or `""`.
 */

/** Keys of an author object in version 2 (`authors`), in the hosted service's order. */
export const AUTHOR_KEYS = [
  'first_name',
  'last_name',
  'corresponding',
  'orcid',
  'current_organization_id',
  'researcher_id',
  'affiliations',
  'raw_affiliation',
] as const;

/** Keys of an affiliation inside a version-2 author object. */
export const AFFILIATION_KEYS = [
  'raw_affiliation',
  'id',
  'name',
  'city',
  'city_id',
  'country',
  'country_code',
  'state',
  'state_code',
] as const;

/**
 * Keys of an author object in version 1 (`author_affiliations`): the hosted v1 answers had
 * neither `corresponding` nor the printed affiliation strings, at either level.
 */
export const V1_AUTHOR_KEYS = [
  'first_name',
  'last_name',
  'orcid',
  'current_organization_id',
  'researcher_id',
  'affiliations',
] as const;

/** Keys of an affiliation inside a version-1 author object. */
export const V1_AFFILIATION_KEYS = [
  'id',
  'name',
  'city',
  'city_id',
  'country',
  'country_code',
  'state',
  'state_code',
] as const;

type Shape = { readonly author: readonly string[]; readonly affiliation: readonly string[] };

const SHAPES: Readonly<Record<1 | 2, Shape>> = {
  1: { author: V1_AUTHOR_KEYS, affiliation: V1_AFFILIATION_KEYS },
  2: { author: AUTHOR_KEYS, affiliation: AFFILIATION_KEYS },
};

/** Author-level keys whose value is a list (empty when the record has none). */
const LIST_KEYS: ReadonlySet<string> = new Set(['affiliations', 'raw_affiliation']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function completeAffiliation(value: unknown, keys: readonly string[]): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(keys.map((k) => [k, value[k] ?? null]));
}

/**
 * An author's ORCID iDs as the hosted service writes them: the printed form of a list, the
 * one way its answers give `orcid` (`"['0000-0001-8223-3200']"`), and `""` for none. A value
 * already in that form (a record copied from the hosted service) is kept.
 *
 * @example hostedOrcid('0000-0002-1825-0097') // "['0000-0002-1825-0097']"
 * @example hostedOrcid(undefined) // ""
 */
export function hostedOrcid(held: unknown): string {
  const ids = (Array.isArray(held) ? held : [held]).filter(
    (id): id is string => typeof id === 'string' && id.trim() !== '',
  );
  if (ids.length === 1 && /^\[.*\]$/.test(ids[0] as string)) return ids[0] as string;
  return ids.length === 0 ? '' : `[${ids.map((id) => `'${id.trim()}'`).join(', ')}]`;
}

/**
 * One author object with exactly the keys of its version, in their order. Values the
 * record holds are kept as they are, but for `orcid` and `corresponding`, which take the
 * hosted text forms; what it lacks is `""`, `[]` for lists and `null` inside affiliations.
 * Keys of other versions (or unknown ones) are dropped.
 *
 * @example completeAuthor({ first_name: 'Ada', last_name: 'Byron', affiliations: [{ id: 'grid.1', name: 'X' }] }, 1)
 * // { first_name: 'Ada', last_name: 'Byron', orcid: '', current_organization_id: '', researcher_id: '',
 * //   affiliations: [{ id: 'grid.1', name: 'X', city: null, city_id: null, country: null, country_code: null,
 * //   state: null, state_code: null }] }
 */
export function completeAuthor(value: unknown, dslVersion: 1 | 2): unknown {
  if (!isObject(value)) return value;
  const shape = SHAPES[dslVersion];
  const out: Record<string, unknown> = {};
  for (const key of shape.author) {
    const held = value[key];
    if (key === 'affiliations') {
      out[key] = Array.isArray(held) ? held.map((a: unknown) => completeAffiliation(a, shape.affiliation)) : [];
    } else if (LIST_KEYS.has(key)) {
      out[key] = Array.isArray(held) ? held : [];
    } else if (key === 'orcid') {
      out[key] = hostedOrcid(held);
    } else if (key === 'corresponding') {
      out[key] = held === true || held === 'true' ? 'true' : '';
    } else {
      out[key] = held === undefined || held === null || held === false ? '' : held;
    }
  }
  return out;
}

/** Every author of a list completed (`completeAuthor`); anything that is not a list as it is. */
export function completeAuthors(value: unknown, dslVersion: 1 | 2): unknown {
  return Array.isArray(value) ? value.map((a: unknown) => completeAuthor(a, dslVersion)) : value;
}
