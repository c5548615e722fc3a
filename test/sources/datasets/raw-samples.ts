// The DataCite samples of test/fixtures/data/datasets read as they are written, without the
// importer's readers (its tar reader included), for tests to count and compare against.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

/** A raw record of the samples, read as it comes (deep JSON). */
export type Raw = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const DATA = fileURLToPath(new URL('../../fixtures/data/datasets/', import.meta.url));
export const REST = join(DATA, 'datacite_rest_api_dois.jsonl.gz');
export const PUBLIC_DATA_FILE = join(DATA, 'datacite_public_data_file_sample.tar.gz');
export const PAGE = join(DATA, 'datacite_api_page.json');

/**
 * The files of a tar (ustar, as the sample is written) by name: 512-byte headers, the name
 * at 0..100 (prefix at 345..500), the size in octal at 124..136, the type at 156, content
 * padded to 512 bytes.
 */
export function tarFiles(tar: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const text = (from: number, to: number): string => header.toString('utf8', from, to).replace(/\0.*$/s, '');
    const size = parseInt(text(124, 136).trim() || '0', 8);
    const prefix = text(345, 500);
    const name = prefix === '' ? text(0, 100) : `${prefix}/${text(0, 100)}`;
    if (text(156, 157) === '0' || text(156, 157) === '') out.set(name, tar.toString('utf8', at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

/** The REST sample's items, as written. */
export const restItems: Raw[] = gunzipSync(readFileSync(REST))
  .toString('utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Raw);

/** The Public Data File sample's lines, parsed. */
export const publicDataLines: Raw[] = [...tarFiles(gunzipSync(readFileSync(PUBLIC_DATA_FILE))).entries()]
  .filter(([name]) => name.endsWith('.jsonl'))
  .flatMap(([, body]) =>
    body
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Raw),
  );

/** The API page sample, parsed. */
export const page: Raw = JSON.parse(readFileSync(PAGE, 'utf8')) as Raw;

/** The resource type of a record's attributes (a REST item's `attributes`, or a Public Data File line). */
export const typed = (attributes: Raw): string | undefined =>
  attributes['types']?.['resourceTypeGeneral'] as string | undefined;
