import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { buildAffiliationIndex } from '../../src/analytics/affiliations/index.ts';
import { matchAffiliation, matchStructured } from '../../src/analytics/affiliations/match.ts';
import { normalise, segments } from '../../src/analytics/affiliations/normalise.ts';
import type { MatchableOrganization } from '../../src/analytics/affiliations/organization.ts';
import { fromOrganizationRecord, fromRorRecord } from '../../src/analytics/affiliations/records.ts';

// ROR records (CC0) around ~100 labelled strings of ROR's affiliation-matching test set
// (ror-community/ror-api, MIT: LICENSE-ror-api-MIT.txt beside them).
const organizations = JSON.parse(
  readFileSync(new URL('../fixtures/affiliations/organizations.json', import.meta.url), 'utf8'),
) as MatchableOrganization[];
const labelled = JSON.parse(
  readFileSync(new URL('../fixtures/affiliations/strings.json', import.meta.url), 'utf8'),
) as {
  affiliation: string;
  ror_ids: string[];
}[];
const index = buildAffiliationIndex(organizations);
const ids = (text: string): string[] => matchAffiliation(index, text).map((m) => m.organization.id);

test('normalises case, accents, & and abbreviations alike on both sides', () => {
  assert.equal(normalise('Univ. of Zürich'), normalise('University of Zurich'));
  assert.equal(normalise('Dept. Physics & Astronomy'), 'department physics astronomy');
  assert.deepEqual(segments('Lab A; Univ B, City (X), Country'), ['Lab A', 'Univ B', 'City', 'X', 'Country']);
});

test('meets the precision and recall floors on labelled single-organization strings', () => {
  const single = labelled.filter((r) => r.ror_ids.length === 1);
  let tp = 0;
  let fp = 0;
  for (const row of single) {
    const got = ids(row.affiliation);
    if (got.includes(row.ror_ids[0] as string)) tp += 1;
    fp += got.filter((id) => id !== row.ror_ids[0]).length;
  }
  assert.ok(single.length >= 50);
  assert.ok(tp / (tp + fp) >= 0.85, `precision ${tp / (tp + fp)}`);
  assert.ok(tp / single.length >= 0.85, `recall ${tp / single.length}`);
});

test('finds several organizations in a multi-organization string', () => {
  const multi = labelled.filter((r) => r.ror_ids.length > 1);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const row of multi) {
    const got = ids(row.affiliation);
    tp += got.filter((id) => row.ror_ids.includes(id)).length;
    fp += got.filter((id) => !row.ror_ids.includes(id)).length;
    fn += row.ror_ids.filter((id) => !got.includes(id)).length;
  }
  const p = tp / (tp + fp);
  const r = tp / (tp + fn);
  assert.ok((2 * p * r) / (p + r) >= 0.75, `set F1 ${(2 * p * r) / (p + r)}`);
  const both = multi.find((row) => row.ror_ids.every((id) => ids(row.affiliation).includes(id)));
  assert.ok(both !== undefined, 'at least one string gives all its organizations');
});

test('returns nothing for strings that name no organization', () => {
  assert.deepEqual(ids('Department of Physics, 12 Main Street, Springfield'), []);
  assert.deepEqual(ids(''), []);
  assert.deepEqual(ids('Independent researcher, Germany'), []);
});

const org = (over: Partial<MatchableOrganization> & { id: string; name: string }): MatchableOrganization => ({
  aliases: [],
  acronyms: [],
  types: ['education'],
  status: 'active',
  ...over,
});

test("takes an acronym only when the string names the organization's city (or its country, for four letters or more)", () => {
  const small = buildAffiliationIndex([
    org({
      id: 'a',
      name: 'Quarry Institute of Technology',
      acronyms: ['QIT'],
      city: 'Lyon',
      countryCode: 'FR',
      countryName: 'France',
    }),
    org({
      id: 'b',
      name: 'Queensland Institute of Tides',
      acronyms: ['QIT', 'QITS'],
      city: 'Brisbane',
      countryCode: 'AU',
      countryName: 'Australia',
    }),
  ]);
  const got = (text: string): string[] => matchAffiliation(small, text).map((m) => m.organization.id);
  assert.deepEqual(got('Department of Chemistry, QIT, Lyon, France'), ['a']);
  assert.deepEqual(got('School of Marine Science, QITS, Australia'), ['b']);
  assert.deepEqual(got('School of Marine Science, QIT, Australia'), []);
  assert.deepEqual(got('Department of Chemistry, QIT'), []);
  // A state written as capitals before the country is no acronym.
  assert.deepEqual(got('Lyon, QIT, France'), []);
});

test('settles a name several organizations share by the place, or leaves it', () => {
  const small = buildAffiliationIndex([
    org({ id: 'p', name: 'Saint Mary Hospital', city: 'Paris', countryCode: 'FR', countryName: 'France' }),
    org({ id: 'l', name: 'Saint Mary Hospital', city: 'London', countryCode: 'GB', countryName: 'United Kingdom' }),
  ]);
  const got = (text: string): string[] => matchAffiliation(small, text).map((m) => m.organization.id);
  assert.deepEqual(got('St. Mary Hospital, London, UK'), ['l']);
  assert.deepEqual(got('Saint Mary Hospital, Paris'), ['p']);
  assert.deepEqual(got('Saint Mary Hospital'), []);
  assert.deepEqual(
    matchStructured(small, { name: 'Saint Mary Hospital', city: 'Paris', country: 'France' }).map(
      (m) => m.organization.id,
    ),
    ['p'],
  );
});

test("answers a withdrawn or inactive record's successor", () => {
  const gone = organizations.find((o) => o.status === 'withdrawn' && o.successor !== undefined);
  assert.ok(gone !== undefined);
  const got = matchAffiliation(index, `${gone.name}, ${gone.city ?? ''}, ${gone.countryName ?? ''}`);
  assert.deepEqual(
    got.map((m) => m.organization.id),
    [gone.successor],
  );
  const alone = buildAffiliationIndex([{ ...gone }]);
  assert.deepEqual(matchAffiliation(alone, gone.name), [], 'a withdrawn record without its successor is not answered');
});

test('matches a few hundred strings a second at least', () => {
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < 200) {
    for (const row of labelled) {
      matchAffiliation(index, row.affiliation);
      n += 1;
    }
  }
  assert.ok(n / ((performance.now() - started) / 1000) > 500);
});

test('a name heading a longer name of another kind is not that organization', () => {
  const small = buildAffiliationIndex([
    org({ id: 'pku', name: 'Peking University', city: 'Beijing', countryCode: 'CN', countryName: 'China' }),
    org({ id: 'duke', name: 'Duke University', city: 'Durham', countryCode: 'US', countryName: 'United States' }),
  ]);
  const got = (text: string): string[] => matchAffiliation(small, text).map((m) => m.organization.id);
  assert.deepEqual(got('Peking University Cancer Hospital, Beijing, China'), []);
  assert.deepEqual(got('Duke University Medical Center, Durham, NC, USA'), []);
  assert.deepEqual(got('Department of Chemistry, Peking University, Beijing, China'), ['pku']);
});

test("a country's name is never read as an acronym", () => {
  const small = buildAffiliationIndex([
    org({
      id: 'army',
      name: 'United States Army',
      acronyms: ['USA'],
      city: 'Arlington',
      countryCode: 'US',
      countryName: 'United States',
    }),
  ]);
  assert.deepEqual(
    matchAffiliation(small, 'Department of Medicine, Richmond, VA, USA').map((m) => m.organization.id),
    [],
  );
});

test("a unit's segment counts only when the string names nothing else", () => {
  const small = buildAffiliationIndex([
    org({ id: 'andhra', name: 'Andhra University', city: 'Visakhapatnam', countryCode: 'IN', countryName: 'India' }),
    org({
      id: 'dbt',
      name: 'Department of Biotechnology',
      city: 'New Delhi',
      countryCode: 'IN',
      countryName: 'India',
    }),
  ]);
  const got = (text: string): string[] => matchAffiliation(small, text).map((m) => m.organization.id);
  assert.deepEqual(got('Department of Biotechnology, Andhra University, Visakhapatnam, India'), ['andhra']);
});

test("a system's name read for one of its campuses gives the campus", () => {
  const small = buildAffiliationIndex([
    org({
      id: 'system',
      name: 'University of California System',
      aliases: ['University of California'],
      city: 'Oakland',
      state: 'California',
      countryCode: 'US',
      countryName: 'United States',
      children: ['ucla', 'ucd'],
    }),
    org({
      id: 'ucla',
      name: 'University of California, Los Angeles',
      city: 'Los Angeles',
      state: 'California',
      countryCode: 'US',
      countryName: 'United States',
      parents: ['system'],
    }),
    org({
      id: 'ucd',
      name: 'University of California, Davis',
      city: 'Davis',
      state: 'California',
      countryCode: 'US',
      countryName: 'United States',
      parents: ['system'],
    }),
  ]);
  const got = (text: string): string[] => matchAffiliation(small, text).map((m) => m.organization.id);
  assert.deepEqual(got('Section of Oral Pathology, University of California, Los Angeles School of Dentistry'), [
    'ucla',
  ]);
  assert.deepEqual(got('Center for Immunology, University of California, Davis 1 , Davis, CA, USA'), ['ucd']);
  // The system alone, or with a city that is no campus's, stays the system.
  assert.deepEqual(got('Department of Pathology, University of California'), ['system']);
  assert.deepEqual(got('Department of Physics, University of California, La Jolla, CA, USA'), ['system']);
});

test("reads an organization's parents and children from ROR records and from the store's records", () => {
  const ror = fromRorRecord({
    id: 'https://ror.org/046rm7j60',
    status: 'active',
    types: ['education'],
    names: [{ value: 'University of California, Los Angeles', types: ['ror_display'] }],
    relationships: [
      { id: 'https://ror.org/00pjdza24', type: 'parent' },
      { id: 'https://ror.org/05t99sp05', type: 'child' },
      { id: 'https://ror.org/01xyz', type: 'related' },
    ],
  });
  assert.deepEqual(ror?.parents, ['https://ror.org/00pjdza24']);
  assert.deepEqual(ror?.children, ['https://ror.org/05t99sp05']);
  const stored = fromOrganizationRecord({
    id: 'grid.19006.3e',
    name: 'University of California, Los Angeles',
    organization_parent_ids: ['grid.30389.31'],
  });
  assert.deepEqual(stored?.parents, ['grid.30389.31']);
  assert.equal(stored?.children, undefined);
});

test('a name that goes on with "of" and more words is the head of another name', () => {
  const small = buildAffiliationIndex([
    org({ id: 'gz', name: 'Guangzhou University', city: 'Guangzhou', countryCode: 'CN', countryName: 'China' }),
  ]);
  const got = (text: string): string[] => matchAffiliation(small, text).map((m) => m.organization.id);
  assert.deepEqual(got('School of Nursing, Guangzhou University of Chinese Medicine, Guangzhou, China'), []);
  // Followed by "of" and a place, it is still the name.
  assert.deepEqual(got('School of Civil Engineering, Guangzhou University of Guangzhou, China'), ['gz']);
  assert.deepEqual(got('School of Civil Engineering Guangzhou University, Guangzhou, China'), ['gz']);
});

test('a name ending a hospital\'s name ("Hospital of X") is not that organization', () => {
  const small = buildAffiliationIndex([
    org({ id: 'ncu', name: 'Nanchang University', city: 'Nanchang', countryCode: 'CN', countryName: 'China' }),
  ]);
  const got = (text: string): string[] => matchAffiliation(small, text).map((m) => m.organization.id);
  assert.deepEqual(
    got('Department of Urology, The First Affiliated Hospital of Nanchang University, Nanchang, China'),
    [],
  );
  assert.deepEqual(got('Department of Urology Hospital of the Nanchang University Nanchang China'), []);
  // Written after a unit of its own, it is the university.
  assert.deepEqual(got('Department of Urology, School of Medicine of Nanchang University, Nanchang, China'), ['ncu']);
});
