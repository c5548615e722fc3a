/**
 * Builds the preset dictionaries the SQLite store packs long text with (a new release file,
 * src/store/sqlite/text-dictionaries.v<N>.json.gz; see src/store/sqlite/text-dictionaries.ts).
 *
 *   npx tsx scripts/build-text-dictionaries.ts --first-id 5 --out src/store/sqlite/text-dictionaries.v2.json.gz
 *
 * Generates a corpus with the demo generator (a seed the benchmarks do not use, so the figures
 * they print are not measured on the very records the dictionaries were cut from), turns its
 * records into stored rows as the writer does today, and builds, per packed column, a
 * dictionary of the pieces of text that recur most across values (`coverDictionary`). Each
 * column tries a few piece lengths and keeps the one that packs held-out values smallest.
 * Released files never change (values name their dictionary by id): a new file takes ids
 * after the last release's, and a migration stores it.
 */
import { createReadStream, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { generate } from '../src/data/generate/index.ts';
import { SOURCE_TABLES, type RecordKind } from '../src/model/storage.ts';
import { recordToRows } from '../src/store/rows.ts';
import { MIN_PACKED_BYTES, PACK_LEVEL } from '../src/store/sqlite/packed-text.ts';
import { dictionaryName, packableColumns, type ShippedDictionary } from '../src/store/sqlite/text-dictionaries.ts';

const { values } = parseArgs({ options: { out: { type: 'string' }, 'first-id': { type: 'string' } } });
// Half of deflate's 32 KiB window: zlib hashes the whole dictionary for every value it packs, so
// its length is paid per value. Measured on 10,000 documents of the 1M database with dictionaries
// built the same way from a sample of it (level 6): 32 KiB instead of 16 KiB packs a document 6%
// smaller for 40% more CPU.
const WINDOW = 16 * 1024;
const SEED = 7;
/**
 * Publications generated to train on. A corpus near the size dictionaries serve matters: trained
 * on 20,000 publications, a document of the 1M benchmark database packed in 438 bytes; trained
 * on 200,000, in 431 (2026-11-27, level 6): authors and affiliations repeat differently in a
 * large corpus.
 */
const CORPUS = 200_000;
/** Values trained on, and values held out to choose each column's piece length with. */
const TRAINING = 3000;
const HELD_OUT = 2000;
/** (k, piece) pairs tried: documents gain from long pieces (author and affiliation shapes), abstracts from words. */
const SHAPES = [
  { k: 6, piece: 32 },
  { k: 8, piece: 48 },
  { k: 10, piece: 64 },
  { k: 16, piece: 128 },
] as const;

/**
 * A dictionary of recurring pieces (after zstd's "cover" training, much simplified): every
 * value is cut into overlapping pieces of `piece` characters; a piece scores the number of
 * values that contain each of its `k`-character substrings not yet covered by a chosen
 * piece; the best piece is taken until the window is full. The best pieces go last, nearest
 * the packed text, where deflate reaches them with the shortest distances.
 */
function coverDictionary(texts: readonly string[], window: number, k: number, piece: number): string {
  const valuesHolding = new Map<string, number>();
  for (const text of texts) {
    const seen = new Set<string>();
    for (let i = 0; i + k <= text.length; i++) seen.add(text.slice(i, i + k));
    for (const gram of seen) valuesHolding.set(gram, (valuesHolding.get(gram) ?? 0) + 1);
  }
  const covered = new Set<string>();
  const score = (candidate: string): number => {
    let total = 0;
    for (let i = 0; i + k <= candidate.length; i++) {
      const gram = candidate.slice(i, i + k);
      if (!covered.has(gram)) total += valuesHolding.get(gram) ?? 0;
    }
    return total;
  };
  const queue = new MaxQueue<string>();
  for (const text of texts)
    for (let i = 0; i + piece <= text.length; i += piece / 2) {
      const candidate = text.slice(i, i + piece);
      queue.push(candidate, score(candidate));
    }
  const chosen: string[] = [];
  let bytes = 0;
  // Lazy greedy: a piece's score only falls as others are chosen, so a popped piece whose
  // fresh score still beats the next one's stale score is the best.
  for (let next = queue.pop(); next !== undefined && bytes < window; next = queue.pop()) {
    const fresh = score(next.item);
    if (fresh < queue.peekScore()) {
      queue.push(next.item, fresh);
      continue;
    }
    if (fresh === 0) break;
    const size = Buffer.byteLength(next.item, 'utf8');
    if (bytes + size > window) continue;
    chosen.push(next.item);
    bytes += size;
    for (let i = 0; i + k <= next.item.length; i++) covered.add(next.item.slice(i, i + k));
  }
  return chosen.reverse().join('');
}

/** A binary max-heap of items by score. */
class MaxQueue<T> {
  readonly #heap: { item: T; score: number }[] = [];
  push(item: T, score: number): void {
    const heap = this.#heap;
    heap.push({ item, score });
    for (let i = heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if ((heap[parent] as { score: number }).score >= score) break;
      [heap[parent], heap[i]] = [heap[i] as { item: T; score: number }, heap[parent] as { item: T; score: number }];
      i = parent;
    }
  }
  peekScore(): number {
    return this.#heap[0]?.score ?? -1;
  }
  pop(): { item: T; score: number } | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    heap[0] = last;
    for (let i = 0; ;) {
      const left = 2 * i + 1;
      let largest = i;
      for (const child of [left, left + 1])
        if (
          child < heap.length &&
          (heap[child] as { score: number }).score > (heap[largest] as { score: number }).score
        )
          largest = child;
      if (largest === i) break;
      [heap[largest], heap[i]] = [heap[i] as { item: T; score: number }, heap[largest] as { item: T; score: number }];
      i = largest;
    }
    return top;
  }
}

/** Mean packed bytes of `texts` with `dictionary` (what the writer stores: never more than the text). */
function meanPacked(texts: readonly string[], dictionary: string): number {
  const bytes = Buffer.from(dictionary, 'utf8');
  let total = 0;
  for (const text of texts) {
    const raw = Buffer.from(text, 'utf8');
    total += Math.min(raw.length, 1 + deflateRawSync(raw, { level: PACK_LEVEL, dictionary: bytes }).length);
  }
  return total / texts.length;
}

/** `count` values taken evenly over the list. */
function spread(texts: readonly string[], count: number): string[] {
  const step = Math.max(1, texts.length / count);
  const out: string[] = [];
  for (let k = 0; k < texts.length && out.length < count; k += step) out.push(texts[Math.floor(k)] as string);
  return out;
}

/** The stored values of every `stride`-th record of a kind, by packed column (read a line at a time). */
async function storedValues(kind: RecordKind, dir: string, stride: number): Promise<Map<string, string[]>> {
  const byColumn = new Map<string, string[]>(packableColumns(kind).map((c) => [c, []]));
  const names = SOURCE_TABLES[kind].columns.map((c) => c.name);
  let n = 0;
  for (const file of readdirSync(dir).filter((f) => f.startsWith(`${kind}-`) && f.endsWith('.jsonl'))) {
    for await (const line of createInterface({ input: createReadStream(join(dir, file)), crlfDelay: Infinity })) {
      if (line.trim() === '' || n++ % stride !== 0) continue;
      const rows = recordToRows(kind, JSON.parse(line) as object);
      for (const [column, list] of byColumn) {
        const value = column === 'doc' ? rows.doc : rows.columns[names.indexOf(column)];
        if (typeof value === 'string') list.push(value);
      }
    }
  }
  return byColumn;
}

const firstId = Number(values['first-id'] ?? 1);
const dir = mkdtempSync(join(tmpdir(), 'quarry-dictionaries-'));
try {
  const manifest = await generate({ publications: CORPUS, seed: SEED, outDir: dir });
  const dictionaries: ShippedDictionary[] = [];
  for (const kind of ['publications', 'grants'] as const) {
    // About 8,000 records of each kind: enough for both halves, spread over the corpus.
    const stride = Math.max(1, Math.floor((manifest.counts[kind] ?? 0) / 8000));
    for (const [column, all] of await storedValues(kind, dir, stride)) {
      const texts = all.filter((t) => t.length >= MIN_PACKED_BYTES);
      const training = spread(
        texts.filter((_, i) => i % 2 === 0),
        TRAINING,
      );
      const heldOut = spread(
        texts.filter((_, i) => i % 2 === 1),
        HELD_OUT,
      );
      let best: { text: string; packed: number; shape: string } | undefined;
      for (const { k, piece } of SHAPES) {
        const text = coverDictionary(training, WINDOW, k, piece);
        const packed = meanPacked(heldOut, text);
        console.log(`  ${kind}.${column} k ${k}, pieces of ${piece}: ${packed.toFixed(1)} bytes a value`);
        if (best === undefined || packed < best.packed) best = { text, packed, shape: `k ${k}, pieces of ${piece}` };
      }
      if (best === undefined) throw new Error(`no values of ${kind}.${column} to build a dictionary from`);
      const name = dictionaryName(SOURCE_TABLES[kind].table, column);
      dictionaries.push({ id: firstId + dictionaries.length, name, text: best.text });
      console.log(
        `${name}: ${Buffer.byteLength(best.text)} bytes (${best.shape}), ${best.packed.toFixed(1)} bytes a held-out value`,
      );
    }
  }
  const out = values.out;
  if (out === undefined) throw new Error('--out FILE is required: released dictionary files never change');
  writeFileSync(out, gzipSync(JSON.stringify(dictionaries), { level: 9 }));
  console.log(`wrote ${out}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
