/**
 * THE escaping function for SQLite full text: every user word reaches FTS5 only through
 * `quoteFts5`, as an FTS5 string with `"` doubled, so no user input can be read as FTS5
 * syntax (operators, column filters `col:`, `^`, `NEAR`, `*`, parentheses).
 *
 * The boolean shape is the walk shared with PostgreSQL (`../fulltext-render.ts`); this file
 * gives it FTS5's operators. FTS5 has no unary NOT (`a NOT b` only) and no single-character
 * or infix wildcards, so:
 * - negations end up as the right side of a binary `NOT`; a search made only of negations
 *   becomes "every row EXCEPT the matches" (`except`);
 * - `?` and non-trailing `*` patterns are expanded against the index vocabulary by the
 *   caller's `expandPattern` (an fts5vocab lookup with GLOB) into an `OR` of real tokens.
 */
import { foldForIndex } from '../../model/index-words.ts';
import { renderMatch, type MatchSyntax } from '../fulltext-render.ts';
import type { TextExpr } from '../text-expr.ts';

export { foldForIndex } from '../../model/index-words.ts';

/** What to ask of the FTS table: rows matching, all rows except those matching, none, all. */
export type Fts5Match =
  | { readonly kind: 'match'; readonly match: string }
  | { readonly kind: 'except'; readonly match: string }
  | { readonly kind: 'none' }
  | { readonly kind: 'all' };

export interface Fts5Options {
  /**
   * FTS5 columns the chosen index covers (from the storage layout, never from the user);
   * absent means every column of the table.
   */
  readonly columns?: readonly string[];
  /**
   * Expands a wildcard pattern (`ital?`, `te*t`, `*est`) into the indexed tokens it matches
   * (at most a bounded number). Given the GLOB form of the pattern, see `patternToGlob`.
   */
  readonly expandPattern: (glob: string) => readonly string[];
}

/** The one quoting rule: an FTS5 string literal with embedded quotes doubled. */
export function quoteFts5(text: string): string {
  // NUL ends a C string inside SQLite; it can never be a meaningful search character.
  return `"${text.replaceAll('\u0000', '').replaceAll('"', '""')}"`;
}

/**
 * Turns a user wildcard pattern into a GLOB over the index vocabulary (which the tokenizer
 * stores case-folded and without diacritics): `?` and `*` keep their meaning, `[` is
 * escaped as `[[]` so it is literal.
 *
 * @example patternToGlob('Ital?') // 'ital?'
 */
export function patternToGlob(pattern: string): string {
  return foldForIndex(pattern).replaceAll('[', '[[]');
}

/**
 * Renders a full-text expression as an FTS5 MATCH string (with a column filter when the
 * index covers only some columns).
 *
 * @example toFts5Match({ kind: 'all', items: [w('a'), { kind: 'not', item: w('b') }] }, opts)
 *   // { kind: 'match', match: '("a") NOT ("b")' }
 * @example toFts5Match({ kind: 'not', item: w('b') }, opts)   // { kind: 'except', match: '"b"' }
 * @example toFts5Match({ kind: 'phrase', parts: [p('formal'), p('model')], near: 10 }, opts)
 *   // { kind: 'match', match: 'NEAR("formal" "model", 10)' }
 */
export function toFts5Match(expr: TextExpr, options: Fts5Options): Fts5Match {
  const rendered = renderMatch(expr, fts5Syntax(options));
  switch (rendered.kind) {
    case 'empty':
    case 'none':
      return { kind: 'none' };
    case 'all':
      return { kind: 'all' };
    case 'pos':
      return { kind: 'match', match: withColumns(rendered.text, options.columns) };
    case 'neg':
      return { kind: 'except', match: withColumns(rendered.text, options.columns) };
  }
}

/** Words with no letter or digit produce no token, and FTS5 would then match nothing. */
function indexable(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/**
 * FTS5's operators for the shared walk (`../fulltext-render.ts`). A term is one FTS5
 * string, which FTS5 cuts into tokens itself (`"covid-19"` is the phrase covid 19); a
 * pattern is expanded against the index vocabulary into an `OR` of real tokens.
 */
function fts5Syntax(options: Fts5Options): MatchSyntax {
  return {
    and: ' AND ',
    or: ' OR ',
    andNot: ' NOT ',
    followedBy: ' + ',
    // bm25() sums over every phrase of the query.
    repeatWeighted: true,
    term: (text, prefix) => (indexable(text) ? (prefix ? `${quoteFts5(text)} *` : quoteFts5(text)) : undefined),
    expand: (pattern) => options.expandPattern(patternToGlob(pattern)),
    tokens: (tokens) => tokens.map(quoteFts5).join(' OR '),
    near: (terms, distance) => `NEAR(${terms.join(' ')}, ${distance})`,
  };
}

function withColumns(match: string, columns: readonly string[] | undefined): string {
  if (columns === undefined) return match;
  for (const c of columns) {
    // Column names come from the storage layout; refuse anything that is not a plain name.
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(c)) throw new Error(`invalid FTS5 column name ${JSON.stringify(c)}`);
  }
  return `{${columns.join(' ')}} : (${match})`;
}
