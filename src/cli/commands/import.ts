/**
 * `quarry import PATH... --db FILE|URL [--format auto|<format>] [--on-error skip|abort] [--batch-size N] [--keep-unfinished] [--max-line-mb N]
 * [--max-decompressed-gb N] [--max-compression-ratio N]`: streams records into a record
 * database. Re-importing the same records updates them. Skipped records are listed as file:line.
 * An import that did not finish is completed with `--resume [N]` or given up with
 * `--discard-unfinished [N]`; until then a new import is refused unless `--keep-unfinished`.
 */
import { Command, Option } from 'commander';
import { QuarryError } from '../../errors/index.ts';
import { FORMAT_SUMMARIES, IMPORT_FORMATS, type ImportFormat } from '../../data/import/format-names.ts';
import type { ImportReport } from '../../data/import/index.ts';
import { parseLimitOption, type ImportLimits } from '../../data/import/limits.ts';
import type { ImportRun } from '../../store/record-writer.ts';
import { exitWithError } from '../exit.ts';

/** The human summary of an import. */
export function formatImportReport(r: ImportReport, dbPath: string): string {
  const total = Object.values(r.records).reduce((s, n) => s + n, 0);
  const seconds = r.ms / 1000;
  const lines = [
    `imported ${total.toLocaleString('en')} records into ${dbPath} in ${seconds.toFixed(1)} s (${Math.round(total / Math.max(seconds, 0.001)).toLocaleString('en')} records/s)`,
  ];
  for (const [kind, n] of Object.entries(r.records)) lines.push(`  ${kind.padEnd(14)} ${n.toLocaleString('en')}`);
  for (const [kind, n] of Object.entries(r.removed))
    lines.push(`removed ${n.toLocaleString('en')} ${kind} (merged into other records)`);
  if (r.problems.length > 0) {
    lines.push(`skipped ${r.skipped} malformed record(s) or file(s):`);
    for (const p of r.problems.slice(0, 50))
      lines.push(`  ${p.file}:${p.line}: ${p.code === undefined ? '' : `${p.code} `}${p.message}`);
    if (r.skipped > 50) lines.push(`  ... and ${r.skipped - 50} more`);
  }
  return lines.join('\n') + '\n';
}

/** `--resume` or `--discard-unfinished` as given: `true` alone, or the run's number. */
function whichRun(value: string | true): true | number {
  if (value === true) return true;
  if (!/^[1-9]\d{0,14}$/.test(value.trim())) throw QuarryError.of('DATA_BAD_IMPORT_NUMBER', { params: { value } });
  return Number(value);
}

/** What `--discard-unfinished` did, for a person. */
export function formatDiscarded(run: ImportRun, db: string): string {
  const done = run.inputs.filter((i) => i.done).length;
  return `discarded import ${run.id} into ${db} (started ${run.startedAt}, ${done} of ${run.inputs.length} inputs complete); the records it committed stay\n`;
}

interface ImportFlags {
  readonly db: string;
  readonly format: string;
  readonly onError: string;
  readonly batchSize: string;
  readonly resume?: string | true;
  readonly discardUnfinished?: string | true;
  readonly keepUnfinished?: boolean;
  readonly maxLineMb?: string;
  readonly maxDecompressedGb?: string;
  readonly maxCompressionRatio?: string;
}

/** The limits given on the command line (the rest take their defaults). */
function limitsOf(raw: ImportFlags): Partial<Record<keyof ImportLimits, number>> {
  const limits: Partial<Record<keyof ImportLimits, number>> = {};
  if (raw.maxLineMb !== undefined) limits.maxLineBytes = parseLimitOption('maxLineBytes', raw.maxLineMb);
  if (raw.maxDecompressedGb !== undefined)
    limits.maxDecompressedBytes = parseLimitOption('maxDecompressedBytes', raw.maxDecompressedGb);
  if (raw.maxCompressionRatio !== undefined)
    limits.maxCompressionRatio = parseLimitOption('maxCompressionRatio', raw.maxCompressionRatio);
  return limits;
}

/** The formats `--format` names, one a line with what each reads, for the command's help. */
export function formatsHelp(): string {
  const width = Math.max(...IMPORT_FORMATS.map((f) => f.length));
  const lines = IMPORT_FORMATS.map((f) => `  ${f.padEnd(width)}  ${FORMAT_SUMMARIES[f]}`);
  return `\nFormats (--format; without it each file's format is told by its layout):\n${lines.join('\n')}\n`;
}

export function register(program: Command): void {
  program.addCommand(
    new Command('import')
      .description('import records, of the formats listed below, into a record database')
      .argument(
        '[paths...]',
        'files or folders, told apart by their layout (a folder from `quarry generate` is read through its manifest; an OpenAlex snapshot folder partition by partition, merged ids last)',
      )
      .requiredOption('--db <file|url>', 'the database: a SQLite file (created when missing) or a postgres:// URL')
      .addOption(
        new Option('--format <format>', `source format: auto, or one of ${IMPORT_FORMATS.join(', ')}`).default('auto'),
      )
      .addOption(
        new Option('--on-error <mode>', 'on a malformed record: skip it (and list it) or abort').default('abort'),
      )
      .option('--batch-size <n>', 'records per transaction', '5000')
      .option('--max-line-mb <n>', 'the longest line, or record spanning lines, read, in MiB (default 64)')
      .option(
        '--max-decompressed-gb <n>',
        'the most one compressed file or zip entry may unpack to, in GiB (default 64)',
      )
      .option(
        '--max-compression-ratio <n>',
        'the most a compressed file may unpack per byte read, judged past its first 16 MiB (default 100)',
      )
      .option(
        '--resume [number]',
        'complete an import into the database that did not finish (its files and options); the number names one when several did not',
      )
      .addOption(
        new Option(
          '--discard-unfinished [number]',
          'give up an import that did not finish: the records it committed stay, derived data is rebuilt over them, and the service accepts the database again',
        ).conflicts(['resume', 'keepUnfinished']),
      )
      .option(
        '--keep-unfinished',
        'import even though an earlier import did not finish (it stays unfinished, and the service refuses the database until it is resumed or discarded)',
      )
      .addHelpText('after', formatsHelp)
      .action(async (paths: string[], raw: ImportFlags) => {
        // Loaded here, not at the top: the progress bar's modules would slow every command's start.
        const { progressBar } = await import('../../data/progress-bar.ts');
        const bar = progressBar('import');
        try {
          if (raw.format !== 'auto' && !(IMPORT_FORMATS as readonly string[]).includes(raw.format)) {
            throw QuarryError.of('DATA_BAD_FORMAT_OPTION', {
              params: { value: raw.format, formats: IMPORT_FORMATS.join(', ') },
            });
          }
          if (raw.onError !== 'skip' && raw.onError !== 'abort')
            throw QuarryError.of('DATA_BAD_ON_ERROR_OPTION', { params: { value: raw.onError } });
          const resume = raw.resume === undefined ? false : whichRun(raw.resume);
          const discard = raw.discardUnfinished === undefined ? undefined : whichRun(raw.discardUnfinished);
          if (discard !== undefined && paths.length > 0)
            throw QuarryError.of('CLI_USAGE', {
              params: { detail: '--discard-unfinished takes no files; import them in a second command' },
            });
          if (resume === false && discard === undefined && paths.length === 0)
            throw QuarryError.of('DATA_NO_INPUT', { params: { db: raw.db } });
          const batchSize = Number(raw.batchSize);
          const limits = limitsOf(raw);
          // Loaded on use: the readers and the back ends would slow the start of every other command.
          const [{ discardUnfinished, importFiles }, { recordWriterFor }] = await Promise.all([
            import('../../data/import/index.ts'),
            import('../../backends.ts'),
          ]);
          if (discard !== undefined) {
            const run = await discardUnfinished({
              open: recordWriterFor(raw.db),
              ...(discard === true ? {} : { run: discard }),
            });
            bar.stop();
            process.stdout.write(formatDiscarded(run, raw.db));
            return;
          }
          const report = await importFiles({
            paths,
            resume,
            keepUnfinished: raw.keepUnfinished === true,
            open: recordWriterFor(raw.db),
            format: raw.format as ImportFormat | 'auto',
            onError: raw.onError,
            ...(Number.isInteger(batchSize) && batchSize > 0 ? { batchSize } : {}),
            limits,
            onProgress: (p) => bar.update(p.done, p.total, `${p.phase} ${p.records.toLocaleString('en')} records`),
          });
          bar.stop();
          process.stdout.write(formatImportReport(report, raw.db));
        } catch (error) {
          bar.stop();
          exitWithError(error);
        }
      }),
  );
}
