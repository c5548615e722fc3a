/**
 * `quarry check [--dsl-version 1|2] FILE...`: validates query files (queries separated by
 * lines holding only `---`, `#` comments, `# expected: error (reason)` after a query that
 * must be rejected) against the language and the schema, without any database.
 *
 * Prints each failure with a caret under its position, then one line
 * `N ok, M failed, K unsupported`. Exit code 0 when nothing failed, 1 otherwise.
 */
import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { formatWithCaret, type Problem } from '../../errors/index.ts';
import { checkCorpus, type CheckedQuery } from '../../schema/corpus-check.ts';

export interface CheckSummary {
  readonly ok: number;
  readonly failed: number;
  readonly unsupported: number;
}

/** The caret display of a problem, with line numbers of the file rather than of the query. */
function caretInFile(entry: CheckedQuery['entry'], p: Problem): string {
  if (p.position === undefined) return formatWithCaret(entry.query, p);
  const shift = entry.line - 1;
  return formatWithCaret('\n'.repeat(shift) + entry.query, {
    ...p,
    position: { line: p.position.line + shift, column: p.position.column },
  });
}

/** One printed block per query that failed or is unsupported. */
export function formatResult(file: string, r: CheckedQuery): string | undefined {
  if (r.outcome === 'ok') return undefined;
  const head =
    r.outcome === 'unsupported' ? `${file}:${r.entry.line}: unsupported` : `${file}:${r.entry.line}: FAILED, ${r.why}`;
  if (r.error === undefined) return `${head}\n  ${r.entry.query.split('\n').join('\n  ')}`;
  const problems = r.outcome === 'unsupported' ? [r.error.first] : r.error.problems;
  return [head, ...problems.map((p) => caretInFile(r.entry, p))].join('\n');
}

/**
 * Checks files and writes the report; returns the totals.
 *
 * @example runCheck(['queries.txt'], { dslVersion: 2 }, process.stdout.write) // { ok: 50, failed: 0, unsupported: 3 }
 */
export function runCheck(
  files: readonly string[],
  options: { readonly dslVersion: 1 | 2 },
  write: (text: string) => void,
): CheckSummary {
  const total = { ok: 0, failed: 0, unsupported: 0 };
  for (const file of files) {
    const report = checkCorpus(readFileSync(file, 'utf8'), options);
    for (const r of report.results) {
      const block = formatResult(file, r);
      if (block !== undefined) write(`${block}\n\n`);
    }
    total.ok += report.ok;
    total.failed += report.failed;
    total.unsupported += report.unsupported;
  }
  write(`${total.ok} ok, ${total.failed} failed, ${total.unsupported} unsupported\n`);
  return total;
}

export function register(program: Command): void {
  program.addCommand(
    new Command('check')
      .description('validate query files against the language and the schema (no database needed)')
      .argument('<files...>', 'query files: queries separated by lines holding only ---, # comments')
      .addOption(new Option('--dsl-version <version>', 'language version').choices(['1', '2']).default('2'))
      .action((files: string[], raw: { dslVersion?: string }) => {
        let summary: CheckSummary;
        try {
          summary = runCheck(files, { dslVersion: raw.dslVersion === '1' ? 1 : 2 }, (t) => process.stdout.write(t));
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          process.stderr.write(
            `quarry check: ${code === 'ENOENT' || code === 'EISDIR' ? `cannot read ${(error as NodeJS.ErrnoException).path ?? 'file'}` : error instanceof Error ? error.message : String(error)}\n`,
          );
          process.exitCode = 1;
          return;
        }
        process.exitCode = summary.failed === 0 ? 0 : 1;
      }),
  );
}
