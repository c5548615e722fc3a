/**
 * Finds the organizations an affiliation string names. The string is cut into segments
 * (commas, semicolons); each run of up to three consecutive segments, and within a segment
 * each longest run of words, is looked up among the compared names of the index. An acronym
 * counts only when the string also names the organization's country or city. A name several
 * organizations share is settled by the places the string names, or left out. Precision
 * first: no answer rather than a doubtful one.
 */
import type { AffiliationIndex } from './index.ts';
import { isStopWord, segments, significant, words } from './normalise.ts';
import type { AffiliationMatch, MatchableOrganization } from './organization.ts';

const MAX_SPAN = 3;
const MAX_PLACE_WORDS = 4;

/** Words that, right after a name, make it the head of a longer one: "Duke University Medical Center". */
const NAME_HEADS: ReadonlySet<string> = new Set([
  'hospital',
  'hospitals',
  'medical',
  'clinic',
  'university',
  'technology',
  'technological',
  'science',
  'sciences',
  'polytechnic',
  'cancer',
]);

/** First words of a unit inside an organization: "Department of Biotechnology, Andhra University". */
const UNIT_HEADS: ReadonlySet<string> = new Set([
  'department',
  'dept',
  'institute',
  'laboratory',
  'division',
  'school',
  'faculty',
  'unit',
  'group',
  'section',
]);

/** The places a string names, as compared word runs, and the countries among them. */
interface Places {
  readonly grams: ReadonlySet<string>;
  readonly countries: ReadonlySet<string>;
}

function placesOf(index: AffiliationIndex, segmentWords: readonly (readonly string[])[]): Places {
  const grams = new Set<string>();
  const countries = new Set<string>();
  for (const list of segmentWords) {
    for (let start = 0; start < list.length; start += 1) {
      for (let n = 1; n <= MAX_PLACE_WORDS && start + n <= list.length; n += 1) {
        const gram = list.slice(start, start + n).join(' ');
        grams.add(gram);
        const country = index.countries.get(gram);
        if (country !== undefined) countries.add(country);
      }
    }
  }
  return { grams, countries };
}

const placeKey = (text: string | undefined): string | undefined =>
  text === undefined ? undefined : significant(words(text)).join(' ');

function cityNamed(org: MatchableOrganization, places: Places): boolean {
  const city = placeKey(org.city);
  const state = placeKey(org.state);
  return (city !== undefined && places.grams.has(city)) || (state !== undefined && places.grams.has(state));
}

function countryNamed(org: MatchableOrganization, places: Places): boolean {
  return org.countryCode !== undefined && places.countries.has(org.countryCode);
}

/** The organization that stands for a record: its successor when it is no longer active and the successor is held. */
function current(index: AffiliationIndex, org: MatchableOrganization): MatchableOrganization | undefined {
  let at = org;
  for (let hops = 0; hops < 4 && at.status !== 'active'; hops += 1) {
    const next = at.successor === undefined ? undefined : index.byId.get(at.successor);
    if (next === undefined) return at.status === 'withdrawn' ? undefined : at;
    at = next;
  }
  return at;
}

/**
 * Of the organizations a name or acronym points at, the one the string means, with a
 * score; none when the places rule them all out or leave several.
 */
function choose(
  candidates: readonly MatchableOrganization[],
  places: Places,
  base: number,
  needPlace: 'none' | 'city-or-country' | 'city',
): AffiliationMatch | undefined {
  let pool = candidates;
  if (places.countries.size > 0)
    pool = pool.filter((o) => o.countryCode === undefined || places.countries.has(o.countryCode));
  if (pool.length > 1) {
    const inCity = pool.filter((o) => cityNamed(o, places));
    if (inCity.length > 0) pool = inCity;
  }
  if (pool.length > 1) {
    const active = pool.filter((o) => o.status === 'active');
    if (active.length > 0) pool = active;
  }
  if (pool.length !== 1) return undefined;
  const org = pool[0] as MatchableOrganization;
  const city = cityNamed(org, places);
  const country = countryNamed(org, places);
  if (needPlace === 'city-or-country' && !city && !country) return undefined;
  if (needPlace === 'city' && !city) return undefined;
  const ambiguity = candidates.length > 1 && !city && !country ? 0.15 : 0;
  const score = Math.min(1, base + (city ? 0.05 : 0) + (country ? 0.05 : 0) - ambiguity);
  return { organization: org, score };
}

/** Whether a compared name is made only of common words ("Department of Biological Sciences"): it then needs its city in the string. */
function generic(index: AffiliationIndex, key: string): boolean {
  return key.split(' ').every((word) => index.commonWords.has(word));
}

/** Whether a compared segment is only a place (a city, a state, a country): never an organization. */
function onlyPlace(index: AffiliationIndex, key: string): boolean {
  return index.countries.has(key) || index.places.has(key);
}

/**
 * The campus a string names when the name found is its system's ("University of California,
 * Los Angeles" read as "University of California"): the one child of the organization that is
 * held, whose city or state the string names and whose name is one of the organization's
 * names with more words: written whole in the string, or with only its city or state added.
 */
function campus(
  index: AffiliationIndex,
  org: MatchableOrganization,
  compared: string,
  places: Places,
  found: ReadonlyMap<string, AffiliationMatch>,
): MatchableOrganization | undefined {
  if (org.children === undefined) return undefined;
  const systemNames = index.compared.get(org.id) ?? [];
  let only: MatchableOrganization | undefined;
  for (const id of org.children) {
    const child = index.byId.get(id);
    if (child === undefined || child.status !== 'active' || found.has(id)) continue;
    const named = (index.compared.get(id) ?? []).some((name) =>
      systemNames.some((system) => {
        if (name.length <= system.length || !` ${name} `.includes(` ${system} `)) return false;
        // Written out whole ("University of California, Los Angeles School of Dentistry"),
        // or the system's name and the campus's city ("University of Wisconsin ..., Madison").
        if (compared.includes(` ${name} `)) return true;
        const extra = ` ${name} `.replace(` ${system} `, ' ').trim().split(' ');
        if (!extra.every((word) => compared.includes(` ${word} `))) return false;
        const placeWords = `${placeKey(child.city) ?? ''} ${placeKey(child.state) ?? ''}`.split(' ');
        return extra.every((word) => placeWords.includes(word));
      }),
    );
    if (!named || !cityNamed(child, places)) continue;
    if (only !== undefined) return undefined;
    only = child;
  }
  return only;
}

/** Words that end a hospital's name written before "of": "Affiliated Hospital of Nanchang University". */
const HOSPITAL_WORDS: ReadonlySet<string> = new Set(['hospital', 'hospitals', 'clinic', 'clinics']);

/**
 * Whether the run of compared words list[start, start+n), a name, is only part of a longer
 * name written in its segment: "Guangzhou University of Chinese Medicine" is not Guangzhou
 * University, nor is "Renmin Hospital of Wuhan University" Wuhan University. `all` is the segment's words with stop words, `at` where each
 * compared word stands among them.
 */
function insideLongerName(
  index: AffiliationIndex,
  list: readonly string[],
  all: readonly string[],
  at: readonly number[],
  start: number,
  n: number,
): boolean {
  const last = at[start + n - 1] as number;
  const after = list[start + n];
  // "X University of Y": the name goes on after "of", unless what follows is a place.
  if (after !== undefined && all[last + 1] === 'of' && !index.places.has(after) && !index.countries.has(after))
    return true;
  // "The First Affiliated Hospital of X University": the name ends the hospital's.
  let before = (at[start] as number) - 1;
  while (before >= 0 && all[before] === 'the') before -= 1;
  return all[before] === 'of' && HOSPITAL_WORDS.has(all[before - 1] ?? '');
}

/** The organizations an affiliation string names, best first. */
export function matchAffiliation(index: AffiliationIndex, text: string): AffiliationMatch[] {
  const raw = segments(text);
  const segmentWords = raw.map((s) => significant(words(s)));
  const keys = segmentWords.map((w) => w.join(' '));
  const places = placesOf(index, segmentWords);
  const found = new Map<string, AffiliationMatch>();
  const take = (match: AffiliationMatch | undefined): void => {
    if (match === undefined) return;
    const org = current(index, match.organization);
    if (org === undefined) return;
    const before = found.get(org.id);
    if (before === undefined || before.score < match.score)
      found.set(org.id, { organization: org, score: match.score });
  };
  const used = new Array<boolean>(raw.length).fill(false);
  // Names of units followed by more segments: kept only when nothing else is found.
  const units: AffiliationMatch[] = [];

  // Runs of whole segments, longest first: "University of California, Berkeley".
  for (let span = Math.min(MAX_SPAN, raw.length); span >= 1; span -= 1) {
    for (let start = 0; start + span <= raw.length; start += 1) {
      if (used.slice(start, start + span).some(Boolean)) continue;
      const key = keys.slice(start, start + span).join(' ');
      if (key.length === 0 || onlyPlace(index, key)) continue;
      const hits = index.names.get(key);
      if (hits === undefined) continue;
      const match = choose(
        hits,
        places,
        span === 1 ? 0.9 : 0.85,
        span === raw.length || !generic(index, key) ? 'none' : 'city-or-country',
      );
      if (match === undefined) continue;
      if (start + span < raw.length && UNIT_HEADS.has(key.split(' ')[0] as string)) {
        units.push(match);
        // Its words are not read again as a name within the segment below.
        for (let k = start; k < start + span; k += 1) used[k] = true;
        continue;
      }
      take(match);
      for (let k = start; k < start + span; k += 1) used[k] = true;
    }
  }

  // Within the other segments, the longest runs of two or more words that are a name.
  for (let s = 0; s < raw.length; s += 1) {
    if (used[s]) continue;
    const list = segmentWords[s] as string[];
    const all = words(raw[s] as string);
    // Where each compared word stands among all the segment's words (stop words included).
    const at = all.flatMap((word, i) => (isStopWord(word) ? [] : [i]));
    let start = 0;
    while (start < list.length - 1) {
      let taken = 0;
      for (let n = Math.min(index.longestName, list.length - start); n >= 2; n -= 1) {
        const key = list.slice(start, start + n).join(' ');
        const hits = index.names.get(key);
        if (hits === undefined || onlyPlace(index, key)) continue;
        // A name followed in its segment by more words that are not a place is the head of
        // another name ("Peking University Cancer Hospital", "Shiraz University of Technology").
        const after = list[start + n];
        if (after !== undefined && NAME_HEADS.has(after)) continue;
        if (insideLongerName(index, list, all, at, start, n)) {
          taken = n;
          break;
        }
        const match = choose(hits, places, 0.8, generic(index, key) ? 'city' : 'none');
        if (match === undefined) continue;
        take(match);
        taken = n;
        break;
      }
      start += taken > 0 ? taken : 1;
    }
  }

  // Acronyms written in capitals, when the string names the organization's country or city.
  for (let s = 0; s < raw.length; s += 1) {
    const tokens = (raw[s] as string).split(/[\s/]+/);
    // A lone short capital word after a city, before the country or at the end, is a state
    // ("Bozeman, MT, USA", "Canberra, ACT, Australia").
    const next = keys[s + 1];
    const previous = keys[s - 1];
    const placeSlot =
      tokens.length === 1 &&
      (next === undefined || index.countries.has(next)) &&
      previous !== undefined &&
      index.places.has(previous);
    for (const token of tokens) {
      const bare = token.replace(/[.-]/g, '');
      if (placeSlot && bare.length <= 3) continue;
      // A country's short name ("USA", "UK") is not an acronym ("United States Army").
      if (index.countries.has(words(bare).join(' '))) continue;
      if (bare.length < 2 || bare.length > 10 || bare !== bare.toUpperCase() || !/\p{Lu}/u.test(bare)) continue;
      const hits = index.acronyms.get(bare);
      if (hits === undefined) continue;
      take(choose(hits, places, 0.75, bare.length <= 3 ? 'city' : 'city-or-country'));
    }
  }

  if (found.size === 0) for (const unit of units) take(unit);

  // A system read for one of its campuses: the campus instead.
  const compared = ` ${segmentWords.flat().join(' ')} `;
  for (const [id, match] of [...found]) {
    const child = campus(index, match.organization, compared, places, found);
    if (child === undefined) continue;
    found.delete(id);
    found.set(child.id, { organization: child, score: match.score });
  }
  return [...found.values()].sort((a, b) => b.score - a.score || a.organization.id.localeCompare(b.organization.id));
}

/** The organizations a structured affiliation (name and place) names. */
export function matchStructured(
  index: AffiliationIndex,
  parts: { name?: string; city?: string; state?: string; country?: string },
): AffiliationMatch[] {
  const text = [parts.name, parts.city, parts.state, parts.country]
    .filter((p) => p !== undefined && p.length > 0)
    .join(', ');
  return text.length === 0 ? [] : matchAffiliation(index, text);
}
