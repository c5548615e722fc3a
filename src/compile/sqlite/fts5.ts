/**
 * THE escaping function for SQLite full text: every user word reaches FTS5 only through
 * `quoteFts5`, as an FTS5 string with `"` doubled, so no user input can be read as FTS5
 * syntax (operators, column filters `col:`, `^`, `NEAR`, `*`, parentheses).
 *
 * FTS5 has no unary NOT (`a NOT b` only) and no single-character or infix wildcards, so:
 * - negations are pushed up with De Morgan until each is the right side of a binary `NOT`;
 *   a search made only of negations becomes "every row EXCEPT the matches" (`except`);
 * - `?` and non-trailing `*` patterns are expanded against the index vocabulary by the
 *   caller's `expandPattern` (an fts5vocab lookup with GLOB) into an `OR` of real tokens.
 */
import { foldForIndex } from '../../model/index-words.ts';
import type { PhrasePart, TextExpr } from '../text-expr.ts';
import { ALL, EMPTY, NONE, negate, type Rendered } from '../rendered-match.ts';

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
  const rendered = render(expr, options);
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

function render(expr: TextExpr, options: Fts5Options): Rendered {
  const rendered = renderUnweighted(expr, options);
  const weight = 'weight' in expr ? (expr.weight ?? 1) : 1;
  if (weight <= 1 || rendered.kind !== 'pos') return rendered;
  // bm25() sums over every phrase of the query, so an item written N times counts N times
  // in relevance while the set of matching rows stays the same (x AND x = x).
  return { kind: 'pos', text: Array.from({ length: Math.trunc(weight) }, () => `(${rendered.text})`).join(' AND ') };
}

function renderUnweighted(expr: TextExpr, options: Fts5Options): Rendered {
  switch (expr.kind) {
    case 'word':
      return indexable(expr.text) ? { kind: 'pos', text: quoteFts5(expr.text) } : EMPTY;
    case 'prefix':
      return indexable(expr.text) ? { kind: 'pos', text: `${quoteFts5(expr.text)} *` } : EMPTY;
    case 'pattern': {
      const tokens = [...new Set(options.expandPattern(patternToGlob(expr.pattern)))];
      if (tokens.length === 0) return NONE;
      return {
        kind: 'pos',
        text: tokens.length === 1 ? quoteFts5(tokens[0] as string) : tokens.map(quoteFts5).join(' OR '),
      };
    }
    case 'phrase':
      return renderPhrase(expr.parts, expr.near);
    case 'all':
      return renderAll(expr.items.map((i) => render(i, options)));
    case 'any':
      return renderAny(expr.items.map((i) => render(i, options)));
    case 'not':
      return negate(render(expr.item, options));
  }
}

function renderPhrase(parts: readonly PhrasePart[], near: number | undefined): Rendered {
  const usable = parts.filter((p) => indexable(p.text));
  if (usable.length === 0) return EMPTY;
  const one = (p: PhrasePart): string => (p.prefix ? `${quoteFts5(p.text)} *` : quoteFts5(p.text));
  if (near !== undefined && usable.length > 1) {
    const distance = Math.max(0, Math.trunc(near));
    return { kind: 'pos', text: `NEAR(${usable.map(one).join(' ')}, ${distance})` };
  }
  return { kind: 'pos', text: usable.map(one).join(' + ') };
}

const group = (texts: readonly string[], op: 'AND' | 'OR'): string =>
  texts.length === 1 ? (texts[0] as string) : texts.map((t) => `(${t})`).join(` ${op} `);

/** A AND B AND NOT C AND NOT D  =  (A AND B) NOT (C OR D);  only negations: NOT (C OR D). */
function renderAll(items: readonly Rendered[]): Rendered {
  const pos: string[] = [];
  const neg: string[] = [];
  for (const r of items) {
    if (r.kind === 'none') return NONE;
    if (r.kind === 'pos') pos.push(r.text);
    if (r.kind === 'neg') neg.push(r.text);
  }
  if (pos.length === 0 && neg.length === 0) return items.some((r) => r.kind === 'all') ? ALL : EMPTY;
  if (neg.length === 0) return { kind: 'pos', text: group(pos, 'AND') };
  if (pos.length === 0) return { kind: 'neg', text: group(neg, 'OR') };
  return { kind: 'pos', text: `(${group(pos, 'AND')}) NOT (${group(neg, 'OR')})` };
}

/** A OR B OR NOT C OR NOT D  =  NOT ((C AND D) NOT (A OR B)). */
function renderAny(items: readonly Rendered[]): Rendered {
  const pos: string[] = [];
  const neg: string[] = [];
  for (const r of items) {
    if (r.kind === 'all') return ALL;
    if (r.kind === 'pos') pos.push(r.text);
    if (r.kind === 'neg') neg.push(r.text);
  }
  if (pos.length === 0 && neg.length === 0) return items.some((r) => r.kind === 'none') ? NONE : EMPTY;
  if (neg.length === 0) return { kind: 'pos', text: group(pos, 'OR') };
  if (pos.length === 0) return { kind: 'neg', text: group(neg, 'AND') };
  return { kind: 'neg', text: `(${group(neg, 'AND')}) NOT (${group(pos, 'OR')})` };
}

function withColumns(match: string, columns: readonly string[] | undefined): string {
  if (columns === undefined) return match;
  for (const c of columns) {
    // Column names come from the storage layout; refuse anything that is not a plain name.
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(c)) throw new Error(`invalid FTS5 column name ${JSON.stringify(c)}`);
  }
  return `{${columns.join(' ')}} : (${match})`;
}
