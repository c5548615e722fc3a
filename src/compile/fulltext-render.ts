/**
 * The one walk over a full-text expression (`text-expr.ts`) that both dialects render with:
 * SQLite's FTS5 MATCH syntax (`sqlite/fts5.ts`) and PostgreSQL's tsquery
 * (`postgres/tsquery.ts`). The boolean shape lives here once, so both engines match the
 * same records: constants and words with no index token fold away, and negations are
 * pushed up with De Morgan until each is the right side of a binary "and not" (FTS5 has no
 * unary NOT), a search made only of negations coming out as `neg` ("every row except").
 *
 * A dialect gives its `MatchSyntax`: the operators, and the hooks that turn user text into
 * its terms. Those hooks are the only way user text reaches the output, and each dialect
 * writes them with its one escaping function (DESIGN.md rule 7), never here.
 */
import { ALL, EMPTY, NONE, negate, type Rendered } from './rendered-match.ts';
import type { PhrasePart, TextExpr } from './text-expr.ts';

/** How one dialect writes a match string. */
export interface MatchSyntax {
  /** Between parenthesised operands that must all match (`' AND '`, `' & '`). */
  readonly and: string;
  /** Between parenthesised operands of which one must match (`' OR '`, `' | '`). */
  readonly or: string;
  /** Between `(A)` and `(B)` for "A and not B" (`' NOT '`, `' & !'`). */
  readonly andNot: string;
  /** Between the terms of a phrase, each right after the one before (`' + '`, `' <-> '`). */
  readonly followedBy: string;
  /**
   * Whether `x^N` is written as N copies of `x` joined by `and`: the matches stay the same
   * and a relevance that sums over the query's items counts it N times. Otherwise weights
   * are ignored.
   */
  readonly repeatWeighted: boolean;
  /**
   * A word, or with `prefix` every word starting with it, through the dialect's escaping
   * function; undefined when the text gives the index no token (no letter or digit).
   */
  term(text: string, prefix: boolean): string | undefined;
  /** The indexed tokens a wildcard pattern (`ital?`, `te*t`) stands for, at most a bounded number. */
  expand(pattern: string): readonly string[];
  /** Distinct tokens from `expand` (one or more) as alternatives, each through the escaping function. */
  tokens(tokens: readonly string[]): string;
  /** Two or more terms within `distance` intervening words of each other, in any order. */
  near(terms: readonly string[], distance: number): string;
}

/**
 * Renders a full-text expression with a dialect's syntax; the dialect turns the result into
 * its match (`pos`: rows matching, `neg`: rows not matching, `none`/`empty`: no row, `all`).
 *
 * @example renderMatch({ kind: 'all', items: [w('a'), { kind: 'not', item: w('b') }] }, fts5Syntax)
 *   // { kind: 'pos', text: '("a") NOT ("b")' }
 * @example renderMatch({ kind: 'any', items: [w('a'), { kind: 'not', item: w('b') }] }, fts5Syntax)
 *   // { kind: 'neg', text: '("b") NOT ("a")' }
 */
export function renderMatch(expr: TextExpr, syntax: MatchSyntax): Rendered {
  const rendered = renderUnweighted(expr, syntax);
  const weight = 'weight' in expr ? (expr.weight ?? 1) : 1;
  if (!syntax.repeatWeighted || weight <= 1 || rendered.kind !== 'pos') return rendered;
  // x AND x = x: the same rows, the item counted as often as it is written.
  const copies = Array.from({ length: Math.trunc(weight) }, () => `(${rendered.text})`);
  return { kind: 'pos', text: copies.join(syntax.and) };
}

/** `texts` joined by `op`, each in parentheses when there are several. */
export function grouped(texts: readonly string[], op: string): string {
  return texts.length === 1 ? (texts[0] as string) : texts.map((t) => `(${t})`).join(op);
}

function renderUnweighted(expr: TextExpr, syntax: MatchSyntax): Rendered {
  switch (expr.kind) {
    case 'word':
    case 'prefix': {
      const text = syntax.term(expr.text, expr.kind === 'prefix');
      return text === undefined ? EMPTY : { kind: 'pos', text };
    }
    case 'pattern': {
      const tokens = [...new Set(syntax.expand(expr.pattern))];
      return tokens.length === 0 ? NONE : { kind: 'pos', text: syntax.tokens(tokens) };
    }
    case 'phrase':
      return renderPhrase(expr.parts, expr.near, syntax);
    case 'all':
      return renderAll(
        expr.items.map((i) => renderMatch(i, syntax)),
        syntax,
      );
    case 'any':
      return renderAny(
        expr.items.map((i) => renderMatch(i, syntax)),
        syntax,
      );
    case 'not':
      return negate(renderMatch(expr.item, syntax));
  }
}

/** Parts with no index token drop out; one part left is a plain term even with `near`. */
function renderPhrase(parts: readonly PhrasePart[], near: number | undefined, syntax: MatchSyntax): Rendered {
  const terms = parts.map((p) => syntax.term(p.text, p.prefix)).filter((t): t is string => t !== undefined);
  if (terms.length === 0) return EMPTY;
  if (near === undefined || terms.length === 1) return { kind: 'pos', text: terms.join(syntax.followedBy) };
  return { kind: 'pos', text: syntax.near(terms, Math.max(0, Math.trunc(near))) };
}

/** A AND B AND NOT C AND NOT D  =  (A AND B) NOT (C OR D);  only negations: NOT (C OR D). */
function renderAll(items: readonly Rendered[], syntax: MatchSyntax): Rendered {
  const pos: string[] = [];
  const neg: string[] = [];
  for (const r of items) {
    if (r.kind === 'none') return NONE;
    if (r.kind === 'pos') pos.push(r.text);
    if (r.kind === 'neg') neg.push(r.text);
  }
  if (pos.length === 0 && neg.length === 0) return items.some((r) => r.kind === 'all') ? ALL : EMPTY;
  if (neg.length === 0) return { kind: 'pos', text: grouped(pos, syntax.and) };
  if (pos.length === 0) return { kind: 'neg', text: grouped(neg, syntax.or) };
  return { kind: 'pos', text: `(${grouped(pos, syntax.and)})${syntax.andNot}(${grouped(neg, syntax.or)})` };
}

/** A OR B OR NOT C OR NOT D  =  NOT ((C AND D) NOT (A OR B)). */
function renderAny(items: readonly Rendered[], syntax: MatchSyntax): Rendered {
  const pos: string[] = [];
  const neg: string[] = [];
  for (const r of items) {
    if (r.kind === 'all') return ALL;
    if (r.kind === 'pos') pos.push(r.text);
    if (r.kind === 'neg') neg.push(r.text);
  }
  if (pos.length === 0 && neg.length === 0) return items.some((r) => r.kind === 'none') ? NONE : EMPTY;
  if (neg.length === 0) return { kind: 'pos', text: grouped(pos, syntax.or) };
  if (pos.length === 0) return { kind: 'neg', text: grouped(neg, syntax.and) };
  return { kind: 'neg', text: `(${grouped(neg, syntax.and)})${syntax.andNot}(${grouped(pos, syntax.or)})` };
}
