import { assertNever, topLevelClauses, type FullTextNode } from '../dsl/index.ts';
import type { SearchFunction } from '../schema/search-functions.ts';
import type { PhrasePart, TextExpr } from './text-expr.ts';

export interface LowerTextOptions {
  /**
   * Person-name indexes (`authors`, `investigators`) match a quoted name in either order
   * (first-last or last-first) with a middle name or initial allowed between the parts;
   * one-letter parts (`J`, `J.`) are initials and match any name starting with them.
   */
  readonly personNames?: boolean;
}

/**
 * Lowers the parser's full-text sub-AST to the dialect-neutral `TextExpr`.
 * `+x` is plain `x` (all terms are required by default), `-x` and `NOT x` are negations,
 * groups disappear, nested conjunctions and disjunctions are flattened.
 *
 * @example lowerFullText(parse('search publications for "te* -foo" return publications').fullText.ast)
 *   // { kind: 'all', items: [{ kind: 'prefix', text: 'te' }, { kind: 'not', item: { kind: 'word', text: 'foo' } }] }
 */
export function lowerFullText(node: FullTextNode, options: LowerTextOptions = {}): TextExpr {
  switch (node.kind) {
    case 'TextTerm':
      return weighted(node.wildcard ? lowerWildcard(node.text) : { kind: 'word', text: node.text }, node.boost);
    case 'TextPhrase': {
      const words = node.words.filter((w) => w.length > 0);
      if (options.personNames === true && words.length >= 2) {
        return weighted({ kind: 'phrase', parts: words.map(namePart), near: words.length }, node.boost);
      }
      if (words.length === 1 && node.proximity === undefined) {
        return weighted({ kind: 'word', text: words[0] as string }, node.boost);
      }
      const parts: PhrasePart[] = words.map((text) => ({ text, prefix: false }));
      return weighted(
        node.proximity === undefined ? { kind: 'phrase', parts } : { kind: 'phrase', parts, near: node.proximity },
        node.boost,
      );
    }
    case 'TextAnd':
      return flatten(
        'all',
        node.operands.map((o) => lowerFullText(o, options)),
      );
    case 'TextOr':
      return flatten(
        'any',
        node.operands.map((o) => lowerFullText(o, options)),
      );
    case 'TextNot':
    case 'TextProhibited':
      return { kind: 'not', item: lowerFullText(node.operand, options) };
    case 'TextGroup':
      return lowerFullText(node.body, options);
    case 'TextRequired':
      return lowerFullText(node.operand, options);
    default:
      return assertNever(node);
  }
}

/**
 * A boost as a whole relevance weight: dialects count a weighted item that many times, so
 * fractions round to the nearest whole number, at least 1 and at most 10 (docs/language.md).
 */
export const MAX_TEXT_WEIGHT = 10;

function weighted(expr: TextExpr, boost: number | undefined): TextExpr {
  if (boost === undefined) return expr;
  const weight = Math.min(MAX_TEXT_WEIGHT, Math.max(1, Math.round(boost)));
  if (weight === 1) return expr;
  switch (expr.kind) {
    case 'word':
    case 'prefix':
    case 'pattern':
    case 'phrase':
      return { ...expr, weight };
    case 'all':
    case 'any':
    case 'not':
      return expr;
    default:
      return assertNever(expr, 'text expression');
  }
}

/**
 * Lowers a search function's string (`for min_should_match("a OR b OR c", 2)`,
 * `for complex("quantum network*", 3)`; schema/search-functions.ts says what each means).
 *
 * @example lowerSearchFunction(ast('a OR b OR c'), { kind: 'min_should_match', min: 2 })
 *   // any [ all[a, b], all[a, c], all[b, c] ]
 * @example lowerSearchFunction(ast('quantum network*'), { kind: 'complex', distance: 3 })
 *   // { kind: 'phrase', parts: [quantum, network (prefix)], near: 3 }
 */
export function lowerSearchFunction(node: FullTextNode, fn: SearchFunction, options: LowerTextOptions = {}): TextExpr {
  switch (fn.kind) {
    case 'min_should_match': {
      const clauses = topLevelClauses(node);
      const optional = clauses.optional.map((c) => lowerFullText(c, options));
      const choices: TextExpr[] = chooseAll(optional, fn.min).map((combo) => flatten('all', combo));
      const items: TextExpr[] = [
        ...clauses.required.map((c) => lowerFullText(c, options)),
        flatten('any', choices),
        ...clauses.prohibited.map((c): TextExpr => ({ kind: 'not', item: lowerFullText(c, options) })),
      ];
      return flatten('all', items);
    }
    case 'complex': {
      const parts: PhrasePart[] = [];
      collectComplexParts(node, parts);
      if (parts.length === 1) {
        const only = parts[0] as PhrasePart;
        return only.prefix ? { kind: 'prefix', text: only.text } : { kind: 'word', text: only.text };
      }
      return { kind: 'phrase', parts, near: fn.distance };
    }
    case 'similar_documents':
      // Words as words, even in a person-name index: the parser already chose and weighed them.
      return lowerFullText(node);
    default:
      return assertNever(fn, 'search function');
  }
}

/** Every way to pick `k` of `items`, in order. */
function chooseAll<T>(items: readonly T[], k: number): T[][] {
  const out: T[][] = [];
  const pick = (from: number, chosen: T[]): void => {
    if (chosen.length === k) {
      out.push([...chosen]);
      return;
    }
    for (let i = from; i <= items.length - (k - chosen.length); i++) {
      chosen.push(items[i] as T);
      pick(i + 1, chosen);
      chosen.pop();
    }
  };
  pick(0, []);
  return out;
}

/** complex(): words and trailing-`*` prefixes in order (the schema refused anything else). */
function collectComplexParts(node: FullTextNode, parts: PhrasePart[]): void {
  switch (node.kind) {
    case 'TextTerm':
      parts.push(node.wildcard ? { text: node.text.slice(0, -1), prefix: true } : { text: node.text, prefix: false });
      return;
    case 'TextPhrase':
      for (const word of node.words) parts.push({ text: word, prefix: false });
      return;
    case 'TextAnd':
      for (const operand of node.operands) collectComplexParts(operand, parts);
      return;
    case 'TextOr':
    case 'TextNot':
    case 'TextRequired':
    case 'TextProhibited':
    case 'TextGroup':
      throw new Error(`complex() reached the compiler with ${node.kind}`);
    default:
      assertNever(node);
  }
}

/** `te*` is a prefix; anything else with `?` or `*` is a pattern the dialect expands. */
function lowerWildcard(text: string): TextExpr {
  const body = text.slice(0, -1);
  if (text.endsWith('*') && body.length > 0 && !/[?*]/.test(body)) return { kind: 'prefix', text: body };
  if (!/[?*]/.test(text)) return { kind: 'word', text };
  return { kind: 'pattern', pattern: text };
}

function namePart(word: string): PhrasePart {
  const bare = word.replace(/\.$/, '');
  return [...bare].length === 1 ? { text: bare, prefix: true } : { text: word, prefix: false };
}

function flatten(kind: 'all' | 'any', items: readonly TextExpr[]): TextExpr {
  const out: TextExpr[] = [];
  for (const item of items) {
    if (item.kind === kind) out.push(...item.items);
    else out.push(item);
  }
  if (out.length === 1) return out[0] as TextExpr;
  return { kind, items: out };
}
