/**
 * Finds the files to import under the given paths and tells their format by their layout:
 * the OpenAlex snapshot's `<entity>/updated_date=*\/part_*.gz` partitions (works, then the
 * other entities; each oldest first, so a newer partition's version of a record wins) and
 * `merged_ids/`, a zip archive's entries (the ROR data dump, NIH ExPORTER's zipped CSV), a
 * generated shard's name, a CSV's header (NIH RePORTER/ExPORTER, ANZSRC FoR 2020, OpenAlex
 * merged ids) and, for JSON, the first record. The source folders' formats
 * (`source-formats.ts`) add the files a folder is searched for, recognise their zip archives
 * by the entries (before the built-in choice of entries) and their files by name and first
 * lines (after the built-in formats).
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { QuarryError } from '../../errors/index.ts';
import { NATIVE_KINDS } from '../../model/native-records.ts';
import { parseCsvLine } from '../csv.ts';
import { kindOfShard } from './formats/native.ts';
import { fileInput, zipEntries, type ImportInput } from './inputs.ts';
import { readLines } from './lines.ts';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from './limits.ts';
import { formatList, type ImportFormat } from './format-names.ts';
import type { FileProbe, ZipClaim } from './record-source.ts';
import { SOURCE_IMPORT_FORMATS } from './source-formats.ts';
export { IMPORT_FORMATS, type ImportFormat } from './format-names.ts';

const DATA_FILE = /\.(jsonl|json|csv)(\.gz)?$/i;
/** An OpenAlex snapshot partition: `works/updated_date=2024-01-31/part_000.gz`. */
const SNAPSHOT_PART = /(?:^|[\\/])updated_date=(\d{4}-\d{2}-\d{2})[\\/]part_(\d+)\.gz$/;
const MERGED_IDS = /(?:^|[\\/])merged_ids[\\/]/;

/** True for a file (by its path) a source folder's format reads: `g_patent.tsv`, `ipgb20230404.xml`, `dois.tar.gz`. */
const sourceFormatFile = (path: string): boolean => {
  const name = basename(path).toLowerCase();
  return SOURCE_IMPORT_FORMATS.some((f) => f.files?.test(name) === true);
};

/**
 * The order of an OpenAlex snapshot's entity folders: works first, so that an author's own
 * record (from `authors/`) replaces the researcher gathered from the works naming it, and a
 * source's record the journal title a work carries.
 */
const SNAPSHOT_ENTITIES = ['works', 'institutions', 'funders', 'sources', 'authors'];
const snapshotEntityRank = (file: string): number => {
  const entity = /(?:^|[\\/])(\w+)[\\/]updated_date=/.exec(file)?.[1] ?? 'works';
  const k = SNAPSHOT_ENTITIES.indexOf(entity);
  return k < 0 ? SNAPSHOT_ENTITIES.length : k;
};

/** Sort key of a file found in a folder: entities first, snapshot partitions by entity and date, merged ids last. */
function rank(file: string): [number, string, number] {
  const part = SNAPSHOT_PART.exec(file);
  if (part !== null) return [NATIVE_KINDS.length + snapshotEntityRank(file), part[1] as string, Number(part[2])];
  if (MERGED_IDS.test(file)) return [NATIVE_KINDS.length + SNAPSHOT_ENTITIES.length + 1, '', 0];
  const k = kindOfShard(file);
  return [k === undefined ? NATIVE_KINDS.length : NATIVE_KINDS.indexOf(k), '', 0];
}

function byRank(a: string, b: string): number {
  const [ka, da, pa] = rank(a);
  const [kb, db, pb] = rank(b);
  return ka - kb || (da < db ? -1 : da > db ? 1 : 0) || pa - pb || (a < b ? -1 : a > b ? 1 : 0);
}

/** True when `path` is `dir` or below it (both resolved). */
function within(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * The path of a file a folder's `manifest.json` names, refused unless it is a file inside
 * the folder: by its name (no `..`, no absolute path) and where it really is (no link out of
 * the folder). A manifest comes with the data, from wherever the data came from, and the
 * import's report quotes what it reads.
 */
function manifestFile(folder: string, manifest: string, file: unknown): string {
  const dir = realpathSync(folder);
  const outside = (): QuarryError =>
    QuarryError.of('DATA_MANIFEST_PATH_OUTSIDE', { params: { manifest, path: String(file), dir: folder } });
  if (typeof file !== 'string' || file === '' || isAbsolute(file) || !within(dir, resolve(dir, file))) throw outside();
  const path = join(folder, file);
  if (!existsSync(path)) throw QuarryError.of('DATA_FILE_NOT_FOUND', { params: { path } });
  if (!within(dir, realpathSync(path)) || !statSync(path).isFile()) throw outside();
  return path;
}

/** The shards a generated folder's `manifest.json` lists, or DATA_MANIFEST_UNREADABLE. */
function manifestShards(manifest: string): { file: unknown; kind: string }[] {
  const unreadable = (reason: string): QuarryError =>
    QuarryError.of('DATA_MANIFEST_UNREADABLE', { params: { manifest, reason } });
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(manifest, 'utf8'));
  } catch (err) {
    throw unreadable((err as Error).message);
  }
  const shards = (parsed as { shards?: unknown } | null)?.shards ?? [];
  if (!Array.isArray(shards) || !shards.every((s) => typeof s === 'object' && s !== null))
    throw unreadable('`shards` is not a list of files and their kinds');
  return shards.map((s: { file?: unknown; kind?: unknown }) => ({ file: s.file, kind: String(s.kind) }));
}

/** The files named by `paths`: files as given, folders searched (a manifest's shards in kind order). */
export function expandPaths(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const path of paths) {
    if (!existsSync(path)) throw QuarryError.of('DATA_FILE_NOT_FOUND', { params: { path } });
    if (!statSync(path).isDirectory()) {
      out.push(path);
      continue;
    }
    const manifest = join(path, 'manifest.json');
    if (existsSync(manifest)) {
      const shards = manifestShards(manifest);
      const ordered = [...shards].sort(
        (a, b) =>
          NATIVE_KINDS.indexOf(a.kind as never) - NATIVE_KINDS.indexOf(b.kind as never) ||
          (String(a.file) < String(b.file) ? -1 : 1),
      );
      out.push(...ordered.map((s) => manifestFile(path, manifest, s.file)));
      continue;
    }
    const files = readdirSync(path, { recursive: true, encoding: 'utf8' })
      .filter(
        (f) =>
          (DATA_FILE.test(f) && basename(f) !== 'manifest.json') ||
          SNAPSHOT_PART.test(f) ||
          /\.zip$/i.test(f) ||
          sourceFormatFile(f),
      )
      .map((f) => join(path, f));
    if (files.length === 0) throw QuarryError.of('DATA_FOLDER_EMPTY', { params: { path, formats: formatList() } });
    out.push(...files.sort(byRank));
  }
  return out;
}

/**
 * The record counts an OpenAlex snapshot's `manifest` gives for the partitions beside it
 * (by absolute partition path), or an empty map when there is none.
 */
export function snapshotManifestCounts(partition: string): Map<string, number> {
  const dir = join(partition, '..', '..');
  const manifest = join(dir, 'manifest');
  const counts = new Map<string, number>();
  if (!existsSync(manifest)) return counts;
  let parsed: { entries?: { url?: string; meta?: { record_count?: number } }[] };
  try {
    parsed = JSON.parse(readFileSync(manifest, 'utf8')) as typeof parsed;
  } catch {
    return counts;
  }
  for (const e of parsed.entries ?? []) {
    const m = /updated_date=[^/]+\/part_\d+\.gz$/.exec(e.url ?? '');
    if (m !== null && typeof e.meta?.record_count === 'number') counts.set(join(dir, m[0]), e.meta.record_count);
  }
  return counts;
}

/**
 * The inputs of `paths`: files, and for a zip archive the entries Quarry reads: those a
 * source folder's format recognises (a USPTO week's XML; a zipped PatentsView table), or the
 * archive whole (ClinicalTrials.gov's bulk download, read in one pass); else the ROR dump's
 * schema-2 JSON when present, else its JSON and JSON Lines files, else its CSV files, as in
 * NIH ExPORTER's yearly zips.
 */
export async function expandInputs(paths: readonly string[]): Promise<ImportInput[]> {
  const out: ImportInput[] = [];
  for (const file of expandPaths(paths)) {
    if (!/\.zip$/i.test(file)) {
      out.push(fileInput(file));
      continue;
    }
    const entries = await zipEntries(file);
    const claimed = claimZip(entries.map((e) => e.name));
    if (claimed !== undefined) {
      const { format, claim } = claimed;
      if ('whole' in claim) out.push({ ...fileInput(file), format });
      else
        for (const e of entries.filter((x) => claim.entries.includes(x.name)))
          out.push({ name: `${file}!${e.name}`, file, entry: e.name, size: e.size, unpacked: e.unpacked, format });
      continue;
    }
    const data = entries.filter((e) => DATA_FILE.test(e.name) && !/\.csv(\.gz)?$/i.test(e.name));
    const v2 = data.filter((e) => /schema_v2\.json$/i.test(e.name));
    // The ROR dump also holds a CSV rendering of the same records: CSV is read only when there is no JSON.
    const csv = entries.filter((e) => /\.csv(\.gz)?$/i.test(e.name));
    const chosen = v2.length > 0 ? v2 : data.length > 0 ? data : csv;
    if (chosen.length === 0)
      throw QuarryError.of('DATA_ZIP_NOTHING_READABLE', {
        params: { file, entries: entries.map((e) => e.name).join(', ') || 'none' },
      });
    for (const e of chosen)
      out.push({ name: `${file}!${e.name}`, file, entry: e.name, size: e.size, unpacked: e.unpacked });
  }
  return out;
}

/** The first source format that recognises a zip archive by its entries, and how it reads it. */
function claimZip(entries: readonly string[]): { format: ImportFormat; claim: ZipClaim } | undefined {
  for (const format of SOURCE_IMPORT_FORMATS) {
    const claim = format.claimZip?.(entries);
    if (claim !== undefined) return { format: format.name, claim };
  }
  return undefined;
}

/** Characters of the first lines a probe holds: enough for the opening of a pretty-printed document. */
const HEAD_CHARS = 4096;

/**
 * What detection reads of an input: its first non-blank lines (undefined for an empty one).
 * The first line is read within the limits (an input whose first line is past them is
 * refused here); the lines after it only while they are of use, and a problem among them is
 * left for the reading to report at its line.
 */
async function probeOf(input: ImportInput, name: string, limits: ImportLimits): Promise<FileProbe | undefined> {
  let first: string | undefined;
  let head = '';
  try {
    for await (const { text } of readLines(input, undefined, limits)) {
      if (first === undefined) {
        if (text.trim() === '') continue;
        first = text.trim();
        head = first;
      } else head += `\n${text}`;
      if (head.length >= HEAD_CHARS) break;
    }
  } catch (err) {
    if (first === undefined) throw err;
  }
  if (first === undefined) return undefined;
  let record: Record<string, unknown> | undefined;
  try {
    const value = JSON.parse(first) as unknown;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) record = value as Record<string, unknown>;
  } catch {
    // Not a JSON line: formats that read other text look at `first` and `head`.
  }
  return { name, first, head, ...(record === undefined ? {} : { record }) };
}

/** The format a CSV header names. */
function csvFormat(header: string): ImportFormat | undefined {
  const columns = new Set(parseCsvLine(header).map((c) => c.trim().toLowerCase()));
  if (columns.has('application_id') || columns.has('project_number') || columns.has('project_num')) return 'nih';
  if (columns.has('code') && columns.has('level') && columns.has('label')) return 'anzsrc';
  if (columns.has('merge_into_id')) return 'openalex';
  return undefined;
}

/**
 * The format of one input, or throws DATA_UNKNOWN_FORMAT (DATA_FILE_EMPTY for an empty file;
 * `InputRefused` for a first line past `limits`).
 */
export async function detectFormat(
  target: string | ImportInput,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
): Promise<ImportFormat> {
  const input = typeof target === 'string' ? fileInput(target) : target;
  if (input.format !== undefined) return input.format;
  const name = basename(input.entry ?? input.file).toLowerCase();
  const unknown = (): QuarryError =>
    QuarryError.of('DATA_UNKNOWN_FORMAT', { params: { path: input.name, formats: formatList() } });
  if (!DATA_FILE.test(name) && !/^part_\d+\.gz$/.test(name) && !sourceFormatFile(name)) throw unknown();
  const probe = await probeOf(input, name, limits);
  if (probe === undefined) throw QuarryError.of('DATA_FILE_EMPTY', { params: { file: input.name } });
  const { first } = probe;
  if (/\.csv(\.gz)?$/.test(name)) {
    // The built-in layouts, then the title lists and other CSV formats of the source folders.
    const format = csvFormat(first) ?? SOURCE_IMPORT_FORMATS.find((f) => f.detect(probe))?.name;
    if (format === undefined) throw unknown();
    return format;
  }
  // A first line that is no JSON object: the name and the source formats decide, below.
  const record = probe.record ?? {};
  const id = typeof record['id'] === 'string' ? record['id'] : '';
  if ('openalex_id' in record || id.startsWith('https://openalex.org/')) return 'openalex';
  if ('DOI' in record) return 'crossref';
  if (id.startsWith('https://ror.org/') || ('names' in record && 'locations' in record)) return 'ror';
  if (/\.jsonl(\.gz)?$/.test(name) && kindOfShard(input.file) !== undefined) return 'quarry';
  for (const format of SOURCE_IMPORT_FORMATS) if (format.detect(probe)) return format.name;
  // A JSON array no source format recognises (a ClinicalTrials.gov download is one too): the ROR dump's.
  if (/\.json(\.gz)?$/.test(name) && first.startsWith('[')) return 'ror';
  throw unknown();
}
