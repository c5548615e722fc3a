import type { FullTextNode } from '../ast.ts';

/** The clauses of a search string split by what `min_should_match` does with them. */
export interface TopLevelClauses {
  readonly optional: readonly FullTextNode[];
  readonly required: readonly FullTextNode[];
  readonly prohibited: readonly FullTextNode[];
}

/**
 * The top-level clauses of a search string, as `min_should_match("...", N)` counts them:
 * the operands of a top-level `OR`, or of a top-level conjunction (`a b c`), or the string
 * itself when it is one clause. In a conjunction `+x` clauses are required and `-x` /
 * `NOT x` prohibited; the rest are optional, and at least N of them must match.
 *
 * @example topLevelClauses(parseFullText('a OR b OR c')) // { optional: [a, b, c], required: [], prohibited: [] }
 * @example topLevelClauses(parseFullText('+a b c -d'))   // { optional: [b, c], required: [a], prohibited: [d] }
 */
export function topLevelClauses(node: FullTextNode): TopLevelClauses {
  const root = node.kind === 'TextGroup' ? node.body : node;
  const operands = root.kind === 'TextOr' || root.kind === 'TextAnd' ? root.operands : [root];
  const optional: FullTextNode[] = [];
  const required: FullTextNode[] = [];
  const prohibited: FullTextNode[] = [];
  for (const operand of operands) {
    if (root.kind === 'TextAnd' && operand.kind === 'TextRequired') required.push(operand.operand);
    else if (root.kind === 'TextAnd' && (operand.kind === 'TextProhibited' || operand.kind === 'TextNot'))
      prohibited.push(operand.operand);
    else optional.push(operand);
  }
  return { optional, required, prohibited };
}
