/**
 * Builds the preset dictionaries the SQLite store packs long text with (a new release file,
 * src/store/sqlite/text-dictionaries.v<N>.json.gz; see src/store/sqlite/text-dictionaries.ts).
 *
 *   npx tsx scripts/build-text-dictionaries.ts --first-id 9 --out src/store/sqlite/text-dictionaries.v3.json.gz
 *
 * Needs the zstd command-line tool (Debian's `zstd` package), whose trainer builds the
 * dictionaries: only to build a release, never to run Quarry, which reads released files.
 *
 * Generates a corpus with the demo generator (a seed the benchmarks do not use, so the figures
 * they print are not measured on the very records the dictionaries were cut from), turns its
 * records into stored rows as the writer does today, trains a zstd dictionary per packed
 * column on half of the values, and prints what the other half packs to. Released files never
 * change (values name their dictionary by id): a new file takes ids after the last release's,
 * and a migration stores it. The first two releases were deflate dictionaries cut by a
 * simplified "cover" method of our own (git history has it); zstd's trainer does that job.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { generate } from '../src/data/generate/index.ts';
import { SOURCE_TABLES, type RecordKind } from '../src/model/storage.ts';
import { recordToRows } from '../src/store/rows.ts';
import { MIN_PACKED_BYTES, packText } from '../src/store/sqlite/packed-text.ts';
import { codecOf } from '../src/store/sqlite/text-codecs.ts';
import { dictionaryName, packableColumns, type ReleasedDictionary } from '../src/store/sqlite/text-dictionaries.ts';

const { values } = parseArgs({ options: { out: { type: 'string' }, 'first-id': { type: 'string' } } });
/**
 * zstd's default dictionary size. A thread digests a dictionary once (text-codecs.ts), so its
 * length costs nothing per value. Trained on 20,000 documents of the 1M benchmark and tried on
 * 5,000 others (level 3, 2026-11-27, frames with their magic number and dictionary id): 110 KiB
 * packed a document in 350 bytes, 64 KiB in 364, 16 KiB in 411.
 */
const DICTIONARY_BYTES = 112_640;
const SEED = 7;
/**
 * Publications generated to train on. A corpus near the size dictionaries serve matters:
 * authors and affiliations repeat differently in a large corpus (deflate dictionaries trained
 * on 20,000 publications packed a document of the 1M benchmark 2% larger than on 200,000).
 */
const CORPUS = 200_000;
/** Records of each kind whose values are read: half trained on, half held out to report on. */
const SAMPLED = 24_000;

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

/** A zstd dictionary trained on `texts` by the zstd tool (one sample file per value). */
function trainZstd(texts: readonly string[], dir: string, id: number): Buffer {
  const samples = join(dir, 'samples');
  rmSync(samples, { recursive: true, force: true });
  mkdirSync(samples);
  texts.forEach((text, k) => writeFileSync(join(samples, String(k)), text));
  const out = join(dir, 'dictionary');
  const run = spawnSync(
    'zstd',
    ['--train', '-r', samples, '-o', out, '-f', '-q', `--maxdict=${DICTIONARY_BYTES}`, `--dictID=${id}`],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (run.error !== undefined) throw new Error(`could not run zstd (apt-get install zstd): ${run.error.message}`);
  if (run.status !== 0) throw new Error(`zstd --train failed with status ${String(run.status)}`);
  const dictionary = readFileSync(out);
  if (codecOf(dictionary) !== 'zstd') throw new Error('zstd --train wrote something that is not a zstd dictionary');
  return dictionary;
}

/** Mean stored bytes of `texts` packed with `dictionary` (what the writer stores: never more than the text). */
function meanStored(texts: readonly string[], id: number, bytes: Buffer): number {
  let total = 0;
  for (const text of texts) {
    const stored = packText(text, { id, bytes });
    total += typeof stored === 'string' ? Buffer.byteLength(stored, 'utf8') : stored.length;
  }
  return total / texts.length;
}

const firstId = Number(values['first-id'] ?? 1);
const out = values.out;
if (out === undefined) throw new Error('--out FILE is required: released dictionary files never change');
const dir = mkdtempSync(join(tmpdir(), 'quarry-dictionaries-'));
try {
  const corpus = join(dir, 'corpus');
  const manifest = await generate({ publications: CORPUS, seed: SEED, outDir: corpus });
  const released: ReleasedDictionary[] = [];
  for (const kind of ['publications', 'grants'] as const) {
    const stride = Math.max(1, Math.floor((manifest.counts[kind] ?? 0) / SAMPLED));
    for (const [column, all] of await storedValues(kind, corpus, stride)) {
      const texts = all.filter((t) => t.length >= MIN_PACKED_BYTES);
      const training = texts.filter((_, i) => i % 2 === 0);
      const heldOut = texts.filter((_, i) => i % 2 === 1);
      const id = firstId + released.length;
      const dictionary = trainZstd(training, dir, id);
      const name = dictionaryName(SOURCE_TABLES[kind].table, column);
      released.push({ id, name, base64: dictionary.toString('base64') });
      const rawMean = heldOut.reduce((s, t) => s + Buffer.byteLength(t, 'utf8'), 0) / heldOut.length;
      console.log(
        `${name} (id ${id}): ${dictionary.length} bytes, trained on ${training.length} values; ` +
          `${heldOut.length} held-out values of ${rawMean.toFixed(0)} bytes store in ${meanStored(heldOut, id, dictionary).toFixed(1)}`,
      );
    }
  }
  writeFileSync(out, gzipSync(JSON.stringify(released), { level: 9 }));
  console.log(`wrote ${out}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
