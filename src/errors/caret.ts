import type { Problem } from './quarry-error.ts';

/**
 * Formats a problem for a terminal: the message, then the query line it points at with a
 * caret under the column.
 *
 * @example
 * formatWithCaret('search pubs return pubs', problem)
 * // Source 'pubs' is not known. Did you mean 'publications'? [SCHEMA_UNKNOWN_SOURCE]
 * //   1 | search pubs return pubs
 * //     |        ^^^^
 */
export function formatWithCaret(source: string, p: Problem): string {
  const head = `${p.message} [${p.code}]`;
  if (!p.position || !p.span) return head;
  const lines = source.split('\n');
  const lineText = lines[p.position.line - 1] ?? '';
  const gutter = String(p.position.line);
  const width = Math.max(1, Math.min(p.span.end - p.span.start, lineText.length - (p.position.column - 1)));
  const pad = ' '.repeat(gutter.length);
  return [
    head,
    `  ${gutter} | ${lineText}`,
    `  ${pad} | ${' '.repeat(p.position.column - 1)}${'^'.repeat(width)}`,
  ].join('\n');
}
