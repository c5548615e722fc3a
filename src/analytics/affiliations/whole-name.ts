/**
 * The organization a name given on its own stands for: a trial's sponsor, a patent's
 * assignee, an affiliation a source gives as a name. Stricter than `matchAffiliation`, which
 * finds names inside longer strings: here a piece of the name (the whole, else one of its
 * comma-separated pieces that is not a place) must be one of the organization's names
 * entire, so "Aksaray University Training and Research Hospital" is not taken for Aksaray
 * University. Legal forms at the end ("Inc.", "Co., Ltd.", "GmbH") and a country in brackets
 * ("Pfizer (United States)", as ROR names companies) are left out of the comparison on both
 * sides. Places in the name or given beside it choose among organizations sharing a name;
 * an answer only when exactly one organization remains.
 */
import type { AffiliationIndex } from './index.ts';
import { normalise, segments } from './normalise.ts';
import type { MatchableOrganization } from './organization.ts';

/** Legal forms, as compared words, dropped from the end of a name. */
const LEGAL_FORMS: ReadonlySet<string> = new Set([
  'company',
  'corporation',
  'incorporated',
  'limited',
  'llc',
  'llp',
  'lp',
  'plc',
  'gmbh',
  'ag',
  'kg',
  'sa',
  'sas',
  'sarl',
  'srl',
  'spa',
  'bv',
  'nv',
  'ab',
  'as',
  'asa',
  'oy',
  'kk',
  'pty',
  'pvt',
  'private',
]);

/** The compared form of a whole name: a trailing country in brackets and legal forms left out. */
export function wholeNameKey(name: string, index: Pick<AffiliationIndex, 'countries'>): string {
  // "Pfizer (United States)": the bracket names a country, not part of the name.
  const bracket = /\(([^()]*)\)\s*$/.exec(name);
  const bare =
    bracket !== null && index.countries.has(normalise(bracket[1] ?? '')) ? name.slice(0, bracket.index) : name;
  const list = normalise(bare).split(' ');
  while (list.length > 1 && LEGAL_FORMS.has(list[list.length - 1] ?? '')) list.pop();
  return list.join(' ');
}

/** Whole names → the organizations bearing them. */
export type WholeNames = ReadonlyMap<string, readonly MatchableOrganization[]>;

/** The whole-name look-up over the organizations of `index`. */
export function buildWholeNames(index: AffiliationIndex): WholeNames {
  const names = new Map<string, MatchableOrganization[]>();
  for (const org of index.byId.values())
    for (const name of [org.name, ...org.aliases]) {
      const key = wholeNameKey(name, index);
      if (key === '') continue;
      const list = names.get(key);
      if (list === undefined) names.set(key, [org]);
      else if (!list.includes(org)) list.push(org);
    }
  return names;
}

/** The organization that stands for `org`: its successor when it is no longer active and the successor is held. */
function current(index: AffiliationIndex, org: MatchableOrganization): MatchableOrganization | undefined {
  let at = org;
  for (let hops = 0; hops < 4 && at.status !== 'active'; hops += 1) {
    const next = at.successor === undefined ? undefined : index.byId.get(at.successor);
    if (next === undefined) return at.status === 'withdrawn' ? undefined : at;
    at = next;
  }
  return at;
}

/** The one organization `name` stands for, with the place given beside it; undefined when none or several. */
export function matchWholeName(
  index: AffiliationIndex,
  names: WholeNames,
  name: string,
  place: { readonly city?: string; readonly state?: string; readonly country?: string } = {},
): MatchableOrganization | undefined {
  const pieces = segments(name).map((s) => ({ text: s, key: normalise(s) }));
  const isPlace = (key: string): boolean => index.countries.has(key) || index.places.has(key);
  const countries = new Set<string>();
  const places = new Set<string>();
  for (const p of [
    ...pieces.map((x) => x.key),
    ...[place.city, place.state, place.country].map((v) => normalise(v ?? '')),
  ]) {
    const code = index.countries.get(p);
    if (code !== undefined) countries.add(code);
    else if (index.places.has(p)) places.add(p);
  }
  const named = pieces.filter((p) => p.key !== '' && !isPlace(p.key));
  // The whole name, then without its places, else each of its pieces alone.
  const tries = [
    name,
    ...(named.length < pieces.length ? [named.map((p) => p.text).join(', ')] : []),
    ...(named.length > 1 ? named.map((p) => p.text) : []),
  ];
  // A city or state the name gives must be the organization's ("University of Nevada, Las Vegas" is not Reno's).
  const inNamedPlace = (o: MatchableOrganization): boolean =>
    (o.city !== undefined && places.has(normalise(o.city))) ||
    (o.state !== undefined && places.has(normalise(o.state)));
  const found = new Set<MatchableOrganization>();
  for (const text of tries) {
    let pool = names.get(wholeNameKey(text, index)) ?? [];
    if (countries.size > 0) pool = pool.filter((o) => o.countryCode === undefined || countries.has(o.countryCode));
    if (text !== name && places.size > 0) pool = pool.filter(inNamedPlace);
    if (pool.length > 1 && places.size > 0) {
      const inPlace = pool.filter(inNamedPlace);
      if (inPlace.length > 0) pool = inPlace;
    }
    if (pool.length > 1) {
      const active = pool.filter((o) => o.status === 'active');
      if (active.length > 0) pool = active;
    }
    // A name several organizations bear, that no place settles, says nothing.
    if (pool.length > 1) return undefined;
    const org = pool[0] === undefined ? undefined : current(index, pool[0]);
    if (org !== undefined) found.add(org);
    // The whole name answered: its pieces are not read again.
    if (found.size > 0 && text === tries[0]) break;
  }
  return found.size === 1 ? [...found][0] : undefined;
}
