import { assertNever, type FullTextNode } from '../dsl/ast.ts';
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
      return node.wildcard ? lowerWildcard(node.text) : { kind: 'word', text: node.text };
    case 'TextPhrase': {
      const words = node.words.filter((w) => w.length > 0);
      if (options.personNames === true && words.length >= 2) {
        return { kind: 'phrase', parts: words.map(namePart), near: words.length };
      }
      if (words.length === 1 && node.proximity === undefined) return { kind: 'word', text: words[0] as string };
      const parts: PhrasePart[] = words.map((text) => ({ text, prefix: false }));
      return node.proximity === undefined ? { kind: 'phrase', parts } : { kind: 'phrase', parts, near: node.proximity };
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
