/**
 * Builds the preset dictionaries the SQLite store packs long text with
 * (src/store/sqlite/text-dictionaries.v1.json.gz; see src/store/sqlite/text-dictionaries.ts).
 *
 *   npx tsx scripts/build-text-dictionaries.ts [--out FILE]
 *
 * Generates a small corpus with the demo generator (a seed the benchmarks do not use, so the
 * figures they print are not measured on the very records the dictionaries were cut from),
 * turns its records into stored rows, and keeps, per packed column, whole values spread over
 * the corpus up to 16 KiB (see WINDOW). Shipping a new file changes nothing in existing
 * databases (each keeps the dictionaries it was made with); give new dictionaries new ids and
 * a migration that stores them.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { generate } from '../src/data/generate/index.ts';
import { SOURCE_TABLES, type RecordKind } from '../src/model/storage.ts';
import { recordToRows } from '../src/store/rows.ts';
import {
  SHIPPED_DICTIONARIES_V1,
  dictionaryName,
  packableColumns,
  type ShippedDictionary,
} from '../src/store/sqlite/text-dictionaries.ts';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
// Half of deflate's 32 KiB window: zlib hashes the whole dictionary for every value it packs, so
// its length is paid per value. Measured on generated publications (level 3): 16 KiB instead of
// 32 KiB packs a document in ~20% less CPU for ~2% more bytes, and an abstract in ~30% less for ~5%.
const WINDOW = 16 * 1024;
const SEED = 7;

/** Whole values, taken evenly over the list, as long as they fit in the window. */
function dictionaryOf(texts: readonly string[]): string {
  const usable = texts.filter((t) => t.length > 0);
  const step = Math.max(1, Math.floor(usable.length / 64));
  let out = '';
  for (let k = 0; k < usable.length; k += step) {
    const next = usable[k] as string;
    if (Buffer.byteLength(out + next, 'utf8') > WINDOW) continue;
    out += next;
  }
  return out;
}

function storedValues(kind: RecordKind, dir: string): Map<string, string[]> {
  const byColumn = new Map<string, string[]>(packableColumns(kind).map((c) => [c, []]));
  const names = SOURCE_TABLES[kind].columns.map((c) => c.name);
  for (const file of readdirSync(dir).filter((f) => f.startsWith(`${kind}-`) && f.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const rows = recordToRows(kind, JSON.parse(line) as object);
      for (const [column, list] of byColumn) {
        const value = column === 'doc' ? rows.doc : rows.columns[names.indexOf(column)];
        if (typeof value === 'string') list.push(value);
      }
    }
  }
  return byColumn;
}

const dir = mkdtempSync(join(tmpdir(), 'quarry-dictionaries-'));
try {
  await generate({ publications: 3000, seed: SEED, outDir: dir });
  const dictionaries: ShippedDictionary[] = [];
  for (const kind of ['publications', 'grants'] as const) {
    for (const [column, texts] of storedValues(kind, dir)) {
      const text = dictionaryOf(texts);
      dictionaries.push({ id: dictionaries.length + 1, name: dictionaryName(SOURCE_TABLES[kind].table, column), text });
      console.log(`${dictionaryName(SOURCE_TABLES[kind].table, column)}: ${Buffer.byteLength(text)} bytes`);
    }
  }
  const out = values.out ?? SHIPPED_DICTIONARIES_V1;
  writeFileSync(out, gzipSync(JSON.stringify(dictionaries), { level: 9 }));
  console.log(`wrote ${out}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
