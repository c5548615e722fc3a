/**
 * `quarry generate --publications N --out DIR [--seed S] [--data-dir DIR] [--force]
 * [--source-records patents=N,...]`:
 * writes the deterministic synthetic dataset (JSONL shards + manifest.json) and prints the
 * validation report. Exit code 1 when the report is out of tolerance.
 */
import { existsSync, readdirSync } from 'node:fs';
import { Command } from 'commander';
import { QuarryError } from '../../errors/index.ts';
import type { Manifest } from '../../data/generate/index.ts';
import { DEFAULT_SEED } from '../../data/generate/seed.ts';
import { exitWithError } from '../exit.ts';

function wholeNumber(name: string, code: 'DATA_BAD_SCALE' | 'DATA_BAD_SEED') {
  return (value: string): number => {
    const n = Number(value.replace(/_/g, ''));
    if (!/^\d[\d_]*$/.test(value) || !Number.isSafeInteger(n))
      throw QuarryError.of(code, { params: { value: `${name} ${value}` } });
    return n;
  };
}

/**
 * The `--source-records` pairs (`patents=1000000,clinical_trials=300000`): how many records
 * each named source's generator makes from the run, for the sources that have one.
 */
export function sourceRecordCounts(value: string, sources: readonly string[]): Record<string, number> {
  const refused = (): QuarryError =>
    QuarryError.of('DATA_BAD_SOURCE_RECORDS', { params: { value, sources: sources.join(', ') } });
  const counts: Record<string, number> = {};
  for (const pair of value.split(',')) {
    const match = /^\s*([a-z_]+)\s*=\s*(\d[\d_]*)\s*$/.exec(pair);
    const n = Number(match?.[2]?.replace(/_/g, ''));
    if (match === null || !sources.includes(match[1] as string) || !Number.isSafeInteger(n) || n < 1) throw refused();
    counts[match[1] as string] = n;
  }
  return counts;
}

/** The human summary of a run. */
export function formatManifest(m: Manifest, dir: string, seconds: number): string {
  const lines = [`generated into ${dir} in ${seconds.toFixed(1)} s (seed ${m.seed}, generator ${m.generator_version})`];
  const width = Math.max(14, ...Object.keys(m.counts).map((kind) => kind.length + 1));
  for (const [kind, n] of Object.entries(m.counts)) lines.push(`  ${kind.padEnd(width)} ${n.toLocaleString('en')}`);
  lines.push(
    `validation ${m.validation.enforced ? (m.validation.passed ? 'passed' : 'FAILED') : '(reported only below 5,000 publications)'}:`,
  );
  for (const c of m.validation.checks)
    lines.push(
      `  ${c.ok ? 'ok  ' : 'OUT '} ${c.name.padEnd(28)} ${String(c.value).padEnd(8)} expected ${c.min}..${c.max}`,
    );
  return lines.join('\n') + '\n';
}

export function register(program: Command): void {
  program.addCommand(
    new Command('generate')
      .description('generate a deterministic synthetic dataset as JSONL shards with a manifest and validation report')
      .requiredOption('--publications <n>', 'number of publications (the scale; other counts follow by ratio)')
      .requiredOption('--out <dir>', 'output folder')
      .option('--seed <s>', 'random seed', String(DEFAULT_SEED))
      .option('--data-dir <dir>', 'reference data folder (default: the vendored src/data/vendor/)')
      .option('--force', 'write into a folder that already holds generated data')
      .option(
        '--source-records <pairs>',
        'records per source made from the run instead of by ratio, e.g. patents=1000000,clinical_trials=300000 (for datasets: those without a paper)',
      )
      .option('--gzip', 'write gzip shards (.jsonl.gz, about a quarter of the size); quarry import reads them')
      .action(
        async (raw: {
          publications: string;
          out: string;
          seed: string;
          dataDir?: string;
          force?: boolean;
          gzip?: boolean;
          sourceRecords?: string;
        }) => {
          // Loaded here, not at the top: the progress bar's modules would slow every command's start.
          const { progressBar } = await import('../../data/progress-bar.ts');
          const bar = progressBar('generate');
          try {
            const publications = wholeNumber('--publications', 'DATA_BAD_SCALE')(raw.publications);
            const seed = wholeNumber('--seed', 'DATA_BAD_SEED')(raw.seed);
            if (raw.force !== true && existsSync(raw.out) && readdirSync(raw.out).length > 0) {
              throw QuarryError.of('DATA_OUTPUT_NOT_EMPTY', { params: { dir: raw.out } });
            }
            const started = performance.now();
            // Loaded on use, so that other commands start without the generator.
            const { generate } = await import('../../data/generate/index.ts');
            const { SOURCE_GENERATORS } = await import('../../data/generate/source-generators.ts');
            const sourceRecords =
              raw.sourceRecords === undefined
                ? undefined
                : sourceRecordCounts(
                    raw.sourceRecords,
                    SOURCE_GENERATORS.filter((g) => g.afterwards !== undefined).map((g) => g.kind),
                  );
            const manifest = await generate({
              publications,
              seed,
              outDir: raw.out,
              ...(raw.dataDir === undefined ? {} : { dataDir: raw.dataDir }),
              onProgress: (p) => bar.update(p.done, p.total, p.phase),
              enforceValidation: false,
              gzip: raw.gzip === true,
              ...(sourceRecords === undefined ? {} : { sourceRecords }),
            });
            bar.stop();
            process.stdout.write(formatManifest(manifest, raw.out, (performance.now() - started) / 1000));
            if (!manifest.validation.passed) process.exitCode = 1;
          } catch (error) {
            bar.stop();
            exitWithError(error);
          }
        },
      ),
  );
}
