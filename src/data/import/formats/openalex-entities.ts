/**
 * The OpenAlex snapshot's entities other than works (`data/authors/`, `data/institutions/`,
 * `data/funders/`, `data/sources/`, each in `updated_date=*\/part_*.gz` partitions), mapped
 * to the records that works name:
 * - an author (`A…`) becomes the researcher works link by the same short id, with its ORCID,
 *   the ROR ids of its affiliations and last known institution, and its OpenAlex works count;
 * - an institution (`I…`) and a funder (`F…`) become organizations keyed by their ROR URL,
 *   as works' `research_orgs` and `funders` and the ROR importer key them (by the OpenAlex
 *   short id when OpenAlex knows no ROR id);
 * - a source (`S…`) becomes the source title works name by its short id
 *   (`sources/source_titles/import-openalex.ts`).
 * Entities no table holds (publishers, topics, concepts, ...) are read and left out.
 */
import type { OrganizationRecord, ResearcherRecord } from '../../../model/native-records.ts';
import { openAlexSourceToTitle } from '../../../sources/source_titles/import-openalex.ts';
import { organizationType } from '../../ror-organization.ts';
import {
  arr,
  bareOrcid,
  MalformedRecord,
  num,
  obj,
  openAlexId,
  rorUrl,
  splitName,
  str,
  type Loose,
  type Mapped,
} from './common.ts';

/** The entity an OpenAlex short id names, by its letter (`A123` -> author). */
export type OpenAlexEntity = 'work' | 'author' | 'institution' | 'funder' | 'source' | 'other';

const ENTITY_LETTERS: Readonly<Record<string, OpenAlexEntity>> = {
  W: 'work',
  A: 'author',
  I: 'institution',
  F: 'funder',
  S: 'source',
};

export function entityOf(shortId: string): OpenAlexEntity {
  const letter = /^([A-Z])\d+$/.exec(shortId)?.[1];
  return (letter === undefined ? undefined : ENTITY_LETTERS[letter]) ?? 'other';
}

const unique = (values: readonly (string | undefined)[]): string[] => [
  ...new Set(values.filter((v): v is string => v !== undefined)),
];

/** `https://www.wikidata.org/wiki/Q230492` (or `/entity/`) -> `Q230492`, as ROR writes them. */
const wikidataId = (v: unknown): string | undefined => /\/(Q\d+)$/.exec(str(v) ?? '')?.[1] ?? undefined;

function nameOf(raw: Loose, id: string): string {
  const name = str(raw['display_name']);
  if (name === undefined) throw new MalformedRecord(`OpenAlex ${id} has no display_name`);
  return name;
}

/** An OpenAlex Author as a researcher (older objects hold one `last_known_institution`). */
export function authorToResearcher(raw: Loose, id: string): ResearcherRecord {
  const { first_name, last_name } = splitName(nameOf(raw, id));
  const orcid = bareOrcid(raw['orcid'] ?? obj(raw['ids'])['orcid']);
  const lastKnown = [...arr(raw['last_known_institutions']), raw['last_known_institution']].map(obj);
  const current = lastKnown.map((i) => rorUrl(i['ror'])).find((r) => r !== undefined);
  const orgs = unique([
    ...arr(raw['affiliations']).map((a) => rorUrl(obj(obj(a)['institution'])['ror'])),
    ...lastKnown.map((i) => rorUrl(i['ror'])),
  ]);
  return {
    id,
    first_name,
    last_name,
    ...(orcid === undefined ? {} : { orcid_id: [orcid] }),
    research_orgs: orgs,
    ...(current === undefined ? {} : { current_research_org: current }),
    total_publications: num(raw['works_count']) ?? 0,
    total_grants: 0,
  };
}

/** An OpenAlex Institution as an organization. */
export function institutionToOrganization(raw: Loose, id: string): OrganizationRecord {
  const name = nameOf(raw, id);
  const ids = obj(raw['ids']);
  const ror = rorUrl(raw['ror'] ?? ids['ror']);
  const geo = obj(raw['geo']);
  const related = (relationship: string): string[] =>
    unique(
      arr(raw['associated_institutions'])
        .map(obj)
        .filter((a) => a['relationship'] === relationship)
        .map((a) => rorUrl(a['ror'])),
    );
  const acronym = str(arr(raw['display_name_acronyms'])[0]);
  const aliases = arr(raw['display_name_alternatives']).filter((a): a is string => str(a) !== undefined);
  const type = str(raw['type']);
  const city = str(geo['city']);
  const region = str(geo['region']);
  const country = str(geo['country_code'] ?? raw['country_code']);
  const countryName = str(geo['country']);
  const lat = num(geo['latitude']);
  const lng = num(geo['longitude']);
  const cityId = str(geo['geonames_city_id']);
  const wikidata = wikidataId(ids['wikidata']);
  const homepage = str(raw['homepage_url']);
  const wikipedia = str(ids['wikipedia']);
  const [parents, children, peers] = [related('parent'), related('child'), related('related')];
  return {
    id: ror ?? id,
    name,
    ...(acronym === undefined ? {} : { acronym }),
    ...(aliases.length === 0 ? {} : { aliases }),
    types: type === undefined ? [] : [organizationType(type)],
    ...(cityId === undefined ? {} : { city_id: cityId }),
    ...(city === undefined ? {} : { city_name: city }),
    ...(region === undefined ? {} : { state_name: region }),
    ...(country === undefined ? {} : { country_code: country }),
    ...(countryName === undefined ? {} : { country_name: countryName }),
    ...(lat === undefined ? {} : { latitude: lat }),
    ...(lng === undefined ? {} : { longitude: lng }),
    status: 'active',
    ...(ror === undefined ? {} : { ror_ids: [ror] }),
    ...(wikidata === undefined ? {} : { wikidata_ids: [wikidata] }),
    ...(parents.length === 0 ? {} : { organization_parent_ids: parents }),
    ...(children.length === 0 ? {} : { organization_child_ids: children }),
    ...(peers.length === 0 ? {} : { organization_related_ids: peers }),
    ...(homepage === undefined ? {} : { linkout: [homepage] }),
    ...(wikipedia === undefined ? {} : { wikipedia_url: wikipedia }),
  };
}

/** An OpenAlex Funder as an organization of type funder (its Crossref Funder id as FundRef). */
export function funderToOrganization(raw: Loose, id: string): OrganizationRecord {
  const name = nameOf(raw, id);
  const ids = obj(raw['ids']);
  const ror = rorUrl(ids['ror']);
  const fundref = str(ids['crossref']);
  const wikidata = wikidataId(ids['wikidata']);
  const country = str(raw['country_code']);
  const homepage = str(raw['homepage_url']);
  const aliases = arr(raw['alternate_titles']).filter((a): a is string => str(a) !== undefined);
  // OpenAlex lists the acronym among the alternate titles: the short all-capitals one.
  const acronym = aliases.find((a) => /^[A-Z][A-Z0-9&-]{1,9}$/.test(a));
  return {
    id: ror ?? id,
    name,
    ...(acronym === undefined ? {} : { acronym }),
    ...(aliases.length === 0 ? {} : { aliases }),
    types: ['Funder'],
    ...(country === undefined ? {} : { country_code: country }),
    status: 'active',
    ...(ror === undefined ? {} : { ror_ids: [ror] }),
    ...(wikidata === undefined ? {} : { wikidata_ids: [wikidata] }),
    ...(fundref === undefined ? {} : { external_ids_fundref: [fundref] }),
    ...(homepage === undefined ? {} : { linkout: [homepage] }),
  };
}

/**
 * OpenAlex keeps a removed author's id as a placeholder named "Deleted Author" with no works;
 * it is no researcher, so it is not imported (works that still name the id keep their link).
 */
export function isDeletedAuthor(raw: Loose): boolean {
  return raw['display_name'] === 'Deleted Author' && (raw['works_count'] ?? 0) === 0;
}

/** The records of one non-work entity (none for entities no table holds). */
export function mapOpenAlexEntity(raw: Loose, id: string, entity: Exclude<OpenAlexEntity, 'work'>): Mapped[] {
  switch (entity) {
    case 'author':
      return isDeletedAuthor(raw) ? [] : [{ kind: 'researchers', record: authorToResearcher(raw, id) }];
    case 'institution':
      return [{ kind: 'organizations', record: institutionToOrganization(raw, id) }];
    case 'funder':
      return [{ kind: 'organizations', record: funderToOrganization(raw, id) }];
    case 'source':
      return [{ kind: 'source_titles', record: openAlexSourceToTitle(raw, id) }];
    case 'other':
      return [];
  }
}

/** The short id of a raw OpenAlex object (`https://openalex.org/A123` -> `A123`). */
export const shortIdOf = (raw: Loose): string | undefined => openAlexId(raw['id']);
