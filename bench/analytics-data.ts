/**
 * Records for the benches of the text analytics (bench/concepts.ts, bench/classify.ts):
 * generated publications (made here into a temporary folder, or read from a generated
 * folder given with --dir), and the real OpenAlex works of ../shared/data when present.
 */
import { createReadStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { gunzipSync } from 'node:zlib';
import { generate } from '../src/data/generate/index.ts';

export type BenchRecord = Record<string, unknown>;

export function argValue(name: string): string | undefined {
  const k = process.argv.indexOf(name);
  return k >= 0 ? process.argv[k + 1] : undefined;
}

/** Generated publications: `--dir DIR` (a `quarry generate` output), else `--publications N` made now (default 20,000). */
export async function generatedPublications(): Promise<{ records: BenchRecord[]; from: string }> {
  let dir = argValue('--dir');
  let made: string | undefined;
  const count = Number(argValue('--publications') ?? 20_000);
  if (dir === undefined) {
    made = mkdtempSync(join(tmpdir(), 'quarry-analytics-'));
    dir = made;
    await generate({ publications: count, seed: 20240601, outDir: dir, threads: 0 });
  }
  const records: BenchRecord[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => /^publications-\d+\.jsonl$/.test(f))
    .sort()) {
    const lines = createInterface({ input: createReadStream(join(dir, file)) });
    for await (const line of lines) if (line.trim() !== '') records.push(JSON.parse(line) as BenchRecord);
  }
  if (made !== undefined) rmSync(made, { recursive: true, force: true });
  return { records, from: made === undefined ? dir : `generated, ${count} publications, seed 20240601` };
}

/** The real OpenAlex works (flattened) of ../shared/data, or none when that folder is absent. */
export function openAlexWorks(): BenchRecord[] {
  const path =
    argValue('--openalex') ?? new URL('../../../shared/data/openalex/works_flat.jsonl', import.meta.url).pathname;
  const candidates = [path, '/work/shared/data/openalex/works_flat.jsonl'];
  const found = candidates.find((p) => existsSync(p));
  if (found === undefined) return [];
  const raw = found.endsWith('.gz') ? gunzipSync(readFileSync(found)).toString('utf8') : readFileSync(found, 'utf8');
  return raw
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as BenchRecord);
}

/** Splits records 80/20 by a fixed hash of their position, so runs compare. */
export function split<T>(records: readonly T[]): { train: T[]; test: T[] } {
  const train: T[] = [];
  const test: T[] = [];
  records.forEach((r, k) => ((Math.imul(k + 1, 2654435761) >>> 0) % 5 === 0 ? test : train).push(r));
  return { train, test };
}

export function textOf(r: BenchRecord): string {
  const title = typeof r['title'] === 'string' ? r['title'] : '';
  const abstract = typeof r['abstract'] === 'string' ? r['abstract'] : '';
  return abstract === '' ? title : `${title}. ${abstract}`;
}

export const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
