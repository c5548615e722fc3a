/**
 * The real reference data the generator draws from, vendored in the repository as small
 * gzip JSON files (`src/data/vendor/`, rebuilt by `scripts/vendor-data.ts`): the Fields of
 * Research 2020 list, a sample of ROR organizations, person names from open work records,
 * and the language model of real titles and abstracts. Nothing outside the repository is read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { packageFile } from '../../package-root.ts';
import type { RorOrganization } from '../ror-organization.ts';
import type { TextModelData } from './text-model.ts';

/** The vendored reference data folder of the repository. */
export const VENDOR_DIR = packageFile('src/data/vendor/');

/** The vendored files, by what they hold. */
export const VENDOR_FILES = {
  forCodes: 'for2020-codes.json.gz',
  organizations: 'ror-organizations.json.gz',
  personNames: 'person-names.json.gz',
  textModel: 'text-model.json.gz',
} as const;

/** One Fields of Research 2020 code. */
export interface ForCode {
  readonly code: string;
  readonly level: 'division' | 'group' | 'field';
  readonly label: string;
  readonly parent?: string;
}

/** First and last names seen in open work records (distinct, sorted). */
export interface PersonNames {
  readonly first: readonly string[];
  readonly last: readonly string[];
}

/** Everything the generator reads. */
export interface ReferenceData {
  readonly forCodes: readonly ForCode[];
  readonly organizations: readonly RorOrganization[];
  readonly personNames: PersonNames;
  readonly textModel: TextModelData;
}

/** Reads one gzip JSON file. */
export function readGzipJson(path: string): unknown {
  return JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as unknown;
}

// Parsed once per folder: the demo build, tests and benchmarks generate several times per process.
const cache = new Map<string, ReferenceData>();

/** The reference data of `dir` (default: the repository's vendored folder). */
export function loadReferenceData(dir: string = VENDOR_DIR): ReferenceData {
  const cached = cache.get(dir);
  if (cached !== undefined) return cached;
  const data: ReferenceData = {
    forCodes: readGzipJson(join(dir, VENDOR_FILES.forCodes)) as ForCode[],
    organizations: readGzipJson(join(dir, VENDOR_FILES.organizations)) as RorOrganization[],
    personNames: readGzipJson(join(dir, VENDOR_FILES.personNames)) as PersonNames,
    textModel: readGzipJson(join(dir, VENDOR_FILES.textModel)) as TextModelData,
  };
  cache.set(dir, data);
  return data;
}
