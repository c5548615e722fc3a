/**
 * The real data the generator draws names, places and codes from: ROR organizations,
 * the Fields of Research 2020 list, and person names from the open work samples. Read
 * from the `shared/data` folder beside the repository (or QUARRY_SHARED_DATA / an option).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { OrganizationRecord } from '../../store/records.ts';
import { parseCsvLine } from '../csv.ts';

/** The shared data folder: the option, else $QUARRY_SHARED_DATA, else `../shared/data` beside the repo. */
export function sharedDataDir(override?: string): string {
  if (override !== undefined && override !== '') return override;
  const env = process.env['QUARRY_SHARED_DATA'];
  if (env !== undefined && env !== '') return env;
  return fileURLToPath(new URL('../../../../shared/data/', import.meta.url));
}

/** A real organization, reduced to what the generator uses. */
export interface RorOrganization {
  readonly rorId: string;
  readonly name: string;
  readonly acronym?: string;
  readonly aliases: readonly string[];
  readonly types: readonly string[];
  readonly status: string;
  readonly established?: number;
  readonly cityId?: string;
  readonly cityName?: string;
  readonly stateCode?: string;
  readonly stateName?: string;
  readonly countryCode?: string;
  readonly countryName?: string;
  readonly latitude?: number;
  readonly longitude?: number;
  readonly wikidata: readonly string[];
  readonly isni: readonly string[];
  readonly fundref: readonly string[];
  readonly links: readonly string[];
}

/** An organization record's descriptive fields (names, types, place, founding year) from a ROR record. */
export type OrganizationDescription = Pick<
  OrganizationRecord,
  | 'acronym'
  | 'aliases'
  | 'types'
  | 'city_id'
  | 'city_name'
  | 'state_code'
  | 'state_name'
  | 'country_code'
  | 'country_name'
  | 'latitude'
  | 'longitude'
  | 'established'
>;

/**
 * The descriptive fields of an organization record, absent ones left out. Shared by the
 * generator (real names and places under synthetic ids) and the ROR importer.
 */
export function organizationDescription(org: RorOrganization): OrganizationDescription {
  return {
    ...(org.acronym === undefined ? {} : { acronym: org.acronym }),
    ...(org.aliases.length === 0 ? {} : { aliases: org.aliases }),
    types: org.types,
    ...(org.cityId === undefined ? {} : { city_id: org.cityId }),
    ...(org.cityName === undefined ? {} : { city_name: org.cityName }),
    ...(org.stateCode === undefined ? {} : { state_code: org.stateCode }),
    ...(org.stateName === undefined ? {} : { state_name: org.stateName }),
    ...(org.countryCode === undefined ? {} : { country_code: org.countryCode }),
    ...(org.countryName === undefined ? {} : { country_name: org.countryName }),
    ...(org.latitude === undefined ? {} : { latitude: org.latitude }),
    ...(org.longitude === undefined ? {} : { longitude: org.longitude }),
    ...(org.established === undefined ? {} : { established: org.established }),
  };
}

type Loose = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Maps one ROR v2 record to the generator's view (also used by the ROR importer's tests). */
export function rorOrganization(raw: Loose): RorOrganization | undefined {
  const rorId = str(raw['id']);
  const names = arr(raw['names']) as Loose[];
  const display = names.find((n) => arr(n['types']).includes('ror_display')) ?? names[0];
  const name = display === undefined ? undefined : str(display['value']);
  if (rorId === undefined || name === undefined) return undefined;
  const acronym = str(names.find((n) => arr(n['types']).includes('acronym'))?.['value']);
  const aliases = names
    .filter((n) => n !== display && !arr(n['types']).includes('acronym'))
    .map((n) => str(n['value']))
    .filter((v): v is string => v !== undefined);
  const location = (arr(raw['locations'])[0] ?? {}) as Loose;
  const geo = (location['geonames_details'] ?? {}) as Loose;
  const ext = (type: string): string[] =>
    (arr(raw['external_ids']) as Loose[])
      .filter((e) => e['type'] === type)
      .flatMap((e) => arr(e['all']).filter((v): v is string => typeof v === 'string'));
  const established = raw['established'];
  const lat = geo['lat'];
  const lng = geo['lng'];
  const geonamesId = location['geonames_id'];
  const cityName = str(geo['name']);
  const stateCode = str(geo['country_subdivision_code']);
  const stateName = str(geo['country_subdivision_name']);
  const countryCode = str(geo['country_code']);
  const countryName = str(geo['country_name']);
  return {
    rorId,
    name,
    ...(acronym === undefined ? {} : { acronym }),
    aliases,
    types: arr(raw['types']).filter((t): t is string => typeof t === 'string'),
    status: str(raw['status']) ?? 'active',
    ...(typeof established === 'number' ? { established } : {}),
    ...(typeof geonamesId === 'number' ? { cityId: String(geonamesId) } : {}),
    ...(cityName === undefined ? {} : { cityName }),
    ...(stateCode === undefined || countryCode === undefined ? {} : { stateCode: `${countryCode}-${stateCode}` }),
    ...(stateName === undefined ? {} : { stateName }),
    ...(countryCode === undefined ? {} : { countryCode }),
    ...(countryName === undefined ? {} : { countryName }),
    ...(typeof lat === 'number' ? { latitude: lat } : {}),
    ...(typeof lng === 'number' ? { longitude: lng } : {}),
    wikidata: ext('wikidata'),
    isni: ext('isni'),
    fundref: ext('fundref'),
    links: (arr(raw['links']) as Loose[]).map((l) => str(l['value'])).filter((v): v is string => v !== undefined),
  };
}

/** Every active ROR organization of the v2 file, in file order (the 342-record sample when the full file is absent). */
export function loadRorOrganizations(dataDir: string): RorOrganization[] {
  const gz = join(dataDir, 'ror', 'ror_v2_latest.jsonl.gz');
  const out: RorOrganization[] = [];
  if (existsSync(gz)) {
    // One gunzip of the whole file is several times faster than a line reader over a stream.
    const text = gunzipSync(readFileSync(gz)).toString('utf8');
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      if (end > start) {
        const org = rorOrganization(JSON.parse(text.slice(start, end)) as Loose);
        if (org !== undefined && org.status === 'active' && org.countryCode !== undefined) out.push(org);
      }
      start = end + 1;
    }
    return out;
  }
  const sample = JSON.parse(readFileSync(join(dataDir, 'ror', 'ror_v2_sample.json'), 'utf8')) as Loose[];
  for (const raw of sample) {
    const org = rorOrganization(raw);
    if (org !== undefined && org.status === 'active' && org.countryCode !== undefined) out.push(org);
  }
  return out;
}

/** One Fields of Research 2020 code. */
export interface ForCode {
  readonly code: string;
  readonly level: 'division' | 'group' | 'field';
  readonly label: string;
  readonly parent?: string;
}

/** The FoR 2020 list, in file order. */
export function loadForCodes(dataDir: string): ForCode[] {
  const text = readFileSync(join(dataDir, 'anzsrc_for_2020', 'for2020_codes.csv'), 'utf8');
  const out: ForCode[] = [];
  for (const line of text.split(/\r?\n/).slice(1)) {
    if (line.trim() === '') continue;
    const [code, level, label, parent] = parseCsvLine(line);
    if (code === undefined || label === undefined || (level !== 'division' && level !== 'group' && level !== 'field'))
      continue;
    out.push({ code, level, label, ...(parent === undefined || parent === '' ? {} : { parent }) });
  }
  return out;
}

/** First and last names seen in the open work samples (distinct, sorted), for synthetic people. */
export function loadPersonNames(dataDir: string): { first: string[]; last: string[] } {
  const first = new Set<string>();
  const last = new Set<string>();
  const plain = /^[\p{L}][\p{L}'-]{1,20}$/u;
  const add = (given: unknown, family: unknown): void => {
    if (typeof given === 'string') {
      const g = given.split(/\s+/)[0] ?? '';
      if (plain.test(g) && !/^[A-Z]\.?$/.test(g)) first.add(g);
    }
    if (typeof family === 'string' && plain.test(family)) last.add(family);
  };
  const flat = join(dataDir, 'openalex', 'works_flat.jsonl');
  if (existsSync(flat)) {
    for (const line of readFileSync(flat, 'utf8').split('\n')) {
      if (line === '') continue;
      for (const a of arr((JSON.parse(line) as Loose)['authors']) as Loose[]) {
        const parts = (str(a['name']) ?? '').split(/\s+/);
        if (parts.length >= 2) add(parts[0], parts[parts.length - 1]);
      }
    }
  }
  const crossref = join(dataDir, 'crossref', 'works.jsonl');
  if (existsSync(crossref)) {
    for (const line of readFileSync(crossref, 'utf8').split('\n')) {
      if (line === '') continue;
      for (const a of arr((JSON.parse(line) as Loose)['author']) as Loose[]) add(a['given'], a['family']);
    }
  }
  const firsts = [...first].filter((n) => n.length > 1 && n === n[0]?.toUpperCase() + n.slice(1)).sort();
  const lasts = [...last].filter((n) => n.length > 1 && n[0] === n[0]?.toUpperCase()).sort();
  return { first: firsts, last: lasts };
}
