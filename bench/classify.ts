/**
 * Quality and cost of `classify(...)`'s classifier (src/analytics/classify/): trained on 80%
 * of the records carrying a category system, tested on the other 20%, per system.
 *
 *   npx tsx bench/classify.ts [--dir GENERATED_DIR | --publications N] [--openalex works_flat.jsonl]
 *                             [--offers N]
 *
 * Prints per system: top-1 accuracy (the best category is one the record carries),
 * precision and recall at k = 1 and 3 over the ranking, precision and recall of the answer
 * (the categories `classify` returns), training time, the memory the trained model keeps. Then the same on real
 * OpenAlex text, with its topics' fields and domains as the labels (OpenAlex carries no
 * category_* system; this measures the learner on real prose). Last, the cost of training FOR
 * as a deployment of `--offers` records (default 1,000,000) would: the generated records
 * offered over and over, a 50,000-record sample kept, time and heap printed.
 */
import { SystemTrainer, type Classifier } from '../src/analytics/classify/hierarchy.ts';
import type { Category } from '../src/analytics/classify/naive-bayes.ts';
import { CLASSIFICATION_SYSTEMS } from '../src/functions/classify.ts';
import {
  argValue,
  generatedPublications,
  openAlexWorks,
  pct,
  split,
  textOf,
  type BenchRecord,
} from './analytics-data.ts';
import { TRAINING_SAMPLE } from '../src/functions/classify.ts';

const TEST_CAP = 5_000;

/** Heap and array buffers in use (a model's weights are typed arrays, outside the heap). */
const memoryUsed = (): number => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;

interface Row {
  system: string;
  train: number;
  test: number;
  labels: number;
  top1: number;
  p3: number;
  r3: number;
  answerP: number;
  answerR: number;
  answerSize: number;
  trainMs: number;
  heapMb: number;
  /** Top-1 of always answering the commonest category of the record's FoR division (generated data: the ceiling where a system is drawn at random within the division). */
  divisionBaseline: number | undefined;
}

function evaluate(model: Classifier, test: readonly { text: string; truth: Set<string> }[]) {
  let top1 = 0;
  let p3 = 0;
  let r3 = 0;
  let hitA = 0;
  let sizeA = 0;
  let truthN = 0;
  let n = 0;
  for (const { text, truth } of test) {
    const ranked = model.rank(text);
    if (ranked.length === 0) continue;
    n++;
    if (truth.has((ranked[0] as Category).id)) top1++;
    const top3 = ranked.slice(0, 3).filter((c) => truth.has(c.id)).length;
    p3 += top3 / 3;
    r3 += top3 / truth.size;
    const answer = model.classify(text);
    hitA += answer.filter((c) => truth.has(c.id)).length;
    sizeA += answer.length;
    truthN += truth.size;
  }
  return {
    top1: top1 / n,
    p3: p3 / n,
    r3: r3 / n,
    answerP: hitA / sizeA,
    answerR: hitA / truthN,
    answerSize: sizeA / n,
  };
}

function run(
  system: string,
  records: readonly BenchRecord[],
  labelsOf: (r: BenchRecord) => Category[],
  maxRecords = 50_000,
): Row | undefined {
  const usable = records.filter((r) => labelsOf(r).length > 0 && textOf(r).trim() !== '');
  if (usable.length < 20) return undefined;
  const { train, test } = split(usable);
  globalThis.gc?.();
  const heapBefore = memoryUsed();
  const started = performance.now();
  let trainer: SystemTrainer | undefined = new SystemTrainer({ maxRecords });
  for (const r of train) trainer.offer(textOf(r), labelsOf(r));
  const model = trainer.train();
  trainer = undefined;
  const trainMs = performance.now() - started;
  globalThis.gc?.();
  const heapMb = (memoryUsed() - heapBefore) / 2 ** 20;
  const cases = test.slice(0, TEST_CAP).map((r) => ({ text: textOf(r), truth: new Set(labelsOf(r).map((c) => c.id)) }));
  let divisionBaseline: number | undefined;
  const division = (r: BenchRecord): string | undefined =>
    categoriesIn('category_for')(r).find((c) => /^\d{2}$/.test(c.id))?.id;
  if (train.some((r) => division(r) !== undefined)) {
    const tally = new Map<string, Map<string, number>>();
    for (const r of train) {
      const d = division(r);
      if (d === undefined) continue;
      const t = tally.get(d) ?? new Map<string, number>();
      for (const c of labelsOf(r)) t.set(c.id, (t.get(c.id) ?? 0) + 1);
      tally.set(d, t);
    }
    let hit = 0;
    let n = 0;
    for (const r of test.slice(0, TEST_CAP)) {
      const d = division(r);
      const t = d === undefined ? undefined : tally.get(d);
      if (t === undefined) continue;
      const best = [...t.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
      n++;
      if (labelsOf(r).some((c) => c.id === best)) hit++;
    }
    divisionBaseline = n > 0 ? hit / n : undefined;
  }
  return {
    system,
    divisionBaseline,
    train: model.trainedOn,
    test: cases.length,
    labels: model.categories,
    ...evaluate(model, cases),
    trainMs,
    heapMb,
  };
}

function print(rows: readonly Row[]): void {
  console.log(
    'system      train   test  labels  top-1   P@3    R@3   answer P  answer R  size  train ms  model MB  division baseline',
  );
  for (const r of rows)
    console.log(
      `${r.system.padEnd(10)} ${String(r.train).padStart(6)} ${String(r.test).padStart(6)} ${String(r.labels).padStart(6)}  ${pct(r.top1).padStart(6)} ${pct(r.p3).padStart(6)} ${pct(r.r3).padStart(6)}  ${pct(r.answerP).padStart(8)}  ${pct(r.answerR).padStart(8)}  ${r.answerSize.toFixed(1).padStart(4)}  ${r.trainMs.toFixed(0).padStart(8)}  ${r.heapMb.toFixed(0).padStart(8)}  ${r.divisionBaseline === undefined ? '-' : pct(r.divisionBaseline)}`,
    );
}

const categoriesIn =
  (field: string) =>
  (r: BenchRecord): Category[] => {
    const v = r[field];
    return Array.isArray(v)
      ? v.filter((c): c is Category => typeof c === 'object' && c !== null && 'id' in c && 'name' in c)
      : [];
  };

const { records, from } = await generatedPublications();
console.log(`Generated data: ${from} (${records.length} publications)\n`);
const rows: Row[] = [];
for (const [system, field] of Object.entries(CLASSIFICATION_SYSTEMS)) {
  const row = run(system, records, categoriesIn(field));
  if (row !== undefined) rows.push(row);
  else console.log(`${system}: too few records carry ${field}`);
}
print(rows);

const works = openAlexWorks();
if (works.length === 0) console.log('\nReal text: ../shared/data/openalex not found, skipped.');
else {
  const field = (r: BenchRecord): Category[] => {
    const topics = Array.isArray(r['topics']) ? (r['topics'] as Record<string, unknown>[]) : [];
    const names = [...new Set(topics.map((t) => t['field']).filter((f): f is string => typeof f === 'string'))];
    return names.map((n) => ({ id: n, name: n }));
  };
  const domain = (r: BenchRecord): Category[] => {
    const topics = Array.isArray(r['topics']) ? (r['topics'] as Record<string, unknown>[]) : [];
    const names = [...new Set(topics.map((t) => t['domain']).filter((f): f is string => typeof f === 'string'))];
    return names.map((n) => ({ id: n, name: n }));
  };
  const withAbstract = works.filter((w) => typeof w['abstract'] === 'string' && w['abstract'] !== '');
  console.log(
    `\nReal text: OpenAlex works of ../shared/data/openalex (${withAbstract.length} with an abstract); labels = their topics' field / domain`,
  );
  print([run('OA field', withAbstract, field), run('OA domain', withAbstract, domain)].filter((r) => r !== undefined));
}

{
  const offers = Number(argValue('--offers') ?? 1_000_000);
  const withFor = records.filter((r) => categoriesIn('category_for')(r).length > 0);
  globalThis.gc?.();
  const heapBefore = memoryUsed();
  const started = performance.now();
  let trainer: SystemTrainer | undefined = new SystemTrainer({ maxRecords: TRAINING_SAMPLE });
  for (let k = 0; k < offers; k++) {
    const r = withFor[k % withFor.length] as BenchRecord;
    trainer.offer(textOf(r), categoriesIn('category_for')(r));
  }
  const offeredMs = performance.now() - started;
  globalThis.gc?.();
  const sampleMb = (memoryUsed() - heapBefore) / 2 ** 20;
  const model = trainer.train();
  trainer = undefined;
  const totalMs = performance.now() - started;
  const peakRssMb = process.memoryUsage().rss / 2 ** 20;
  globalThis.gc?.();
  const heapMb = (memoryUsed() - heapBefore) / 2 ** 20;
  console.log(
    `\nFOR at scale: ${offers} records offered, ${model.trainedOn} kept; offering ${(offeredMs / 1000).toFixed(1)} s, ` +
      `training ${((totalMs - offeredMs) / 1000).toFixed(1)} s; memory with the sample kept +${sampleMb.toFixed(0)} MB, ` +
      `the model kept +${heapMb.toFixed(0)} MB${globalThis.gc === undefined ? ' (run with --expose-gc)' : ''}, rss ${peakRssMb.toFixed(0)} MB ` +
      '(reading the records from the database not included)',
  );
}
