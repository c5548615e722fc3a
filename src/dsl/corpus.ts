/** One query of a query corpus file (such as the conformance file). */
export interface CorpusQuery {
  /** The query text, comment lines removed, surrounding blank lines trimmed. */
  readonly query: string;
  /** The text after `# expected:` when the record says how the query must end (`error (...)`). */
  readonly expected?: string;
  /** 1-based line of the query's first line in the file. */
  readonly line: number;
}

const EXPECTED = /^#\s*expected:\s*(.*)$/;

/**
 * Reads a query corpus: records separated by lines holding only `---`, lines starting with
 * `#` are comments, and a `# expected: ...` comment attaches to the query before it.
 * Records without a query (the file's header) are skipped.
 *
 * @example
 * readQueryCorpus('---\nsearch grants return grants\n# expected: error (x)\n---\n')
 * // [{ query: 'search grants return grants', expected: 'error (x)', line: 2 }]
 */
export function readQueryCorpus(text: string): CorpusQuery[] {
  const out: CorpusQuery[] = [];
  const lines = text.split(/\r?\n/);
  let queryLines: string[] = [];
  let firstLine = 0;
  let expected: string | undefined;

  const flush = (): void => {
    while (queryLines.length > 0 && (queryLines[queryLines.length - 1] ?? '').trim() === '') queryLines.pop();
    if (queryLines.length > 0) {
      const query = queryLines.join('\n').trim();
      out.push(expected === undefined ? { query, line: firstLine } : { query, expected, line: firstLine });
    }
    queryLines = [];
    expected = undefined;
  };

  lines.forEach((line, index) => {
    if (line.trim() === '---') {
      flush();
      return;
    }
    if (line.trimStart().startsWith('#')) {
      const match = EXPECTED.exec(line.trim());
      if (match && queryLines.length > 0) expected = (match[1] ?? '').trim();
      return;
    }
    if (queryLines.length === 0) {
      if (line.trim() === '') return;
      firstLine = index + 1;
    }
    queryLines.push(line);
  });
  flush();
  return out;
}
