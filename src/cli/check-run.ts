/**
 * The work of `quarry check` (src/cli/commands/check.ts): checks query files against the
 * language and the schema and writes a report. Loaded only when the command runs, so that
 * `quarry --help` and the other commands do not load the parser and the schema.
 */
import { readFileSync } from 'node:fs';
import { formatWithCaret, type Problem } from '../errors/index.ts';
import { STATEMENT_FUNCTIONS } from '../functions/registry.ts';
import { checkCorpus, type CheckedQuery } from '../schema/corpus-check.ts';

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
    const report = checkCorpus(readFileSync(file, 'utf8'), { ...options, statements: STATEMENT_FUNCTIONS });
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
