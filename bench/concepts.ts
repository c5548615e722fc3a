/**
 * Quality and cost of `extract_concepts(...)` (src/analytics/concepts/): the vocabulary is
 * built from 80% of the records (their concepts and texts), and the concepts extracted from
 * the title and abstract of each of the other 20% are compared with the concepts that record
 * carries.
 *
 *   npx tsx bench/concepts.ts [--dir GENERATED_DIR | --publications N] [--openalex works_flat.jsonl]
 *
 * Prints precision at 5 and 10, recall at 10 and over the whole answer, and "in text": the
 * share of a record's concepts its title and abstract name at all (what any extractor reading
 * only the text can find), then the cost: vocabulary build time and memory, time per text;
 * last, the vocabulary a deployment of `--offers` records (default 1,000,000) builds: the
 * concepts of the first 250,000 and the words of the first 50,000 texts.
 */
import { extractConcepts } from '../src/analytics/concepts/score.ts';
import { VocabularyBuilder } from '../src/analytics/concepts/vocabulary.ts';
import { keyOfText } from '../src/analytics/text/words.ts';
import { VOCABULARY_RECORDS, WORD_COUNT_RECORDS } from '../src/functions/extract-concepts.ts';
import {
  argValue,
  generatedPublications,
  openAlexWorks,
  pct,
  split,
  textOf,
  type BenchRecord,
} from './analytics-data.ts';

const TEST_CAP = 3_000;

function conceptsOf(r: BenchRecord): string[] {
  const v = r['concepts'];
  if (!Array.isArray(v)) return [];
  return v
    .map((c: unknown) =>
      typeof c === 'string' ? c : typeof c === 'object' && c !== null ? (c as { name?: unknown }).name : undefined,
    )
    .filter((c): c is string => typeof c === 'string');
}

function run(label: string, records: readonly BenchRecord[]): void {
  const usable = records.filter((r) => conceptsOf(r).length > 0 && textOf(r).trim() !== '');
  const { train, test } = split(usable);
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let started = performance.now();
  const builder = new VocabularyBuilder();
  for (const r of train) builder.add({ concepts: conceptsOf(r), text: textOf(r) });
  const vocabulary = builder.build();
  const buildMs = performance.now() - started;
  globalThis.gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;

  let p5 = 0;
  let p10 = 0;
  let r10 = 0;
  let rAll = 0;
  let inText = 0;
  let returned = 0;
  let n = 0;
  const cases = test.slice(0, TEST_CAP);
  started = performance.now();
  for (const r of cases) {
    const truth = new Set(conceptsOf(r).map(keyOfText));
    const text = textOf(r);
    const got = extractConcepts(text, vocabulary).map((c) => keyOfText(c.concept));
    const hits = (k: number) => got.slice(0, k).filter((c) => truth.has(c)).length;
    n++;
    p5 += hits(5) / Math.min(5, Math.max(1, got.length));
    p10 += hits(10) / Math.min(10, Math.max(1, got.length));
    r10 += hits(10) / truth.size;
    rAll += hits(got.length) / truth.size;
    returned += got.length;
    const padded = ` ${keyOfText(text)} `;
    inText += [...truth].filter((t) => padded.includes(` ${t} `) || padded.includes(` ${t}s `)).length / truth.size;
  }
  const perTextMs = (performance.now() - started) / Math.max(1, n);
  console.log(`\n${label}`);
  console.log(
    `  vocabulary: ${vocabulary.size} concepts from ${vocabulary.conceptRecords} records, word counts from ${vocabulary.textRecords} texts; built in ${buildMs.toFixed(0)} ms, ~${heapMb.toFixed(0)} MB heap`,
  );
  console.log(`  held-out records: ${n}; concepts returned per text: ${(returned / Math.max(1, n)).toFixed(1)}`);
  console.log(
    `  P@5 ${pct(p5 / n)}  P@10 ${pct(p10 / n)}  R@10 ${pct(r10 / n)}  R(all returned) ${pct(rAll / n)}  in text (ceiling) ${pct(inText / n)}`,
  );
  console.log(`  ${perTextMs.toFixed(2)} ms per text`);
}

const { records, from } = await generatedPublications();
run(`Generated data: ${from} (${records.length} publications)`, records);
const works = openAlexWorks();
if (works.length === 0) console.log('\nReal text: ../shared/data/openalex not found, skipped.');
else run(`Real text: OpenAlex works of ../shared/data/openalex (${works.length}), OpenAlex concepts as truth`, works);

{
  const offers = Math.min(Number(argValue('--offers') ?? 1_000_000), VOCABULARY_RECORDS);
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const builder = new VocabularyBuilder();
  for (let k = 0; k < offers; k++) {
    const r = records[k % records.length] as BenchRecord;
    builder.add({ concepts: conceptsOf(r), ...(k < WORD_COUNT_RECORDS ? { text: textOf(r) } : {}) });
  }
  const v = builder.build();
  const ms = performance.now() - started;
  globalThis.gc?.();
  console.log(
    `\nVocabulary at scale: concepts of ${offers} records, words of ${Math.min(offers, WORD_COUNT_RECORDS)} texts: ` +
      `${v.size} concepts, ${(ms / 1000).toFixed(1)} s, heap +${((process.memoryUsage().heapUsed - heapBefore) / 2 ** 20).toFixed(0)} MB ` +
      '(reading the records from the database not included)',
  );
}
