/**
 * Finds the files to import under the given paths and tells their format: from the name
 * (`*.csv` is NIH, a generated shard name is Quarry's own) and, for JSON, from the first record.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { QuarryError } from '../../errors/index.ts';
import { NATIVE_KINDS } from '../../model/native-records.ts';
import { kindOfShard } from './formats/native.ts';
import { readLines } from './lines.ts';

export const IMPORT_FORMATS = ['quarry', 'openalex', 'ror', 'crossref', 'nih'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

const DATA_FILE = /\.(jsonl|json|csv)(\.gz)?$/i;

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
      const shards =
        (JSON.parse(readFileSync(manifest, 'utf8')) as { shards?: { file: string; kind: string }[] }).shards ?? [];
      const ordered = [...shards].sort(
        (a, b) =>
          NATIVE_KINDS.indexOf(a.kind as never) - NATIVE_KINDS.indexOf(b.kind as never) || (a.file < b.file ? -1 : 1),
      );
      out.push(...ordered.map((s) => join(path, s.file)));
      continue;
    }
    const files = readdirSync(path, { recursive: true, encoding: 'utf8' })
      .filter((f) => DATA_FILE.test(f) && basename(f) !== 'manifest.json')
      .sort()
      .map((f) => join(path, f));
    // Entities before the records that name them, when the names tell the kind.
    const rank = (f: string): number => {
      const k = kindOfShard(f);
      return k === undefined ? NATIVE_KINDS.length : NATIVE_KINDS.indexOf(k);
    };
    out.push(...files.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0)));
  }
  return out;
}

async function firstLine(path: string): Promise<string> {
  for await (const { text } of readLines(path)) if (text.trim() !== '') return text.trim();
  return '';
}

/** The format of one file, or throws DATA_UNKNOWN_FORMAT. */
export async function detectFormat(path: string): Promise<ImportFormat> {
  const name = basename(path).toLowerCase();
  if (/\.csv(\.gz)?$/.test(name)) return 'nih';
  const first = await firstLine(path);
  if (/\.json(\.gz)?$/.test(name) && first.startsWith('[')) return 'ror';
  if (/\.jsonl(\.gz)?$/.test(name)) {
    let record: Record<string, unknown> = {};
    try {
      record = JSON.parse(first) as Record<string, unknown>;
    } catch {
      // A malformed first line: fall back to the name.
    }
    const id = typeof record['id'] === 'string' ? record['id'] : '';
    if ('openalex_id' in record || id.startsWith('https://openalex.org/')) return 'openalex';
    if ('DOI' in record) return 'crossref';
    if (id.startsWith('https://ror.org/') || ('names' in record && 'locations' in record)) return 'ror';
    if (kindOfShard(path) !== undefined) return 'quarry';
  }
  throw QuarryError.of('DATA_UNKNOWN_FORMAT', { params: { path } });
}
