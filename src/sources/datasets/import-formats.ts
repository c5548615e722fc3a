/**
 * How the files of datasets' import format are recognised (named in `model.ts`; recognition
 * and reader go together in `data.ts`): DataCite DOI metadata, its records typed Dataset
 * (`import-datacite-files.ts` reads the files):
 *
 * - the Public Data File, a `.tar`, `.tar.gz` or `.tgz` of `<prefix>/part_N.jsonl(.gz)`,
 *   recognised by name (no other format Quarry reads is a tar);
 * - JSON Lines of REST API items (`{"id", "type": "dois", "attributes": {"doi", ...}}`) or of
 *   Public Data File lines (flat: `doi` and `types`), recognised by the first record;
 * - a REST API answer saved as a `.json` file (`{"data": [...], "included", "links", "meta"}`,
 *   or `data` one DOI item), recognised by its `data`.
 */
import type { FileProbe, FormatRecognition } from '../../data/import/record-source.ts';

type Loose = Readonly<Record<string, unknown>>;
const isObject = (v: unknown): v is Loose => v !== null && typeof v === 'object' && !Array.isArray(v);

const TAR = /\.(tar|tar\.gz|tgz)$/;

/** A DataCite DOI: a REST API item, or a line of the Public Data File (the item's attributes, flat). */
function isDoiRecord(record: Loose): boolean {
  const attributes = record['attributes'];
  if (isObject(attributes) && typeof attributes['doi'] === 'string')
    return record['type'] === undefined || record['type'] === 'dois';
  return typeof record['doi'] === 'string' && isObject(record['types']);
}

/** A REST API answer: `data`, a list of DOI items or one. */
function isApiPage(record: Loose): boolean {
  const data = record['data'];
  const first: unknown = Array.isArray(data) ? data[0] : data;
  if (Array.isArray(data) && data.length === 0) return isObject(record['meta']) || isObject(record['links']);
  return isObject(first) && first['type'] === 'dois';
}

function detect(probe: FileProbe): boolean {
  if (TAR.test(probe.name)) return true;
  if (/\.jsonl(\.gz)?$/.test(probe.name)) return probe.record !== undefined && isDoiRecord(probe.record);
  if (!/\.json(\.gz)?$/.test(probe.name)) return false;
  // A page on one line is parsed whole; a pretty-printed one is told by its opening.
  if (probe.record !== undefined) return isApiPage(probe.record);
  return /^\{\s*"data"\s*:\s*[[{]\s*\{?\s*"id"\s*:\s*"[^"]*"\s*,\s*"type"\s*:\s*"dois"/.test(probe.head);
}

export const dataciteFormat: FormatRecognition = {
  files: /\.(tar|tar\.gz|tgz)$/,
  detect,
};
