import { topLevelClauses, type FullTextNode, type FunctionCall, type Span } from '../dsl/index.ts';

/**
 * The search functions this deployment offers after `for` (docs/language.md, "Search
 * functions"); the parser already refused any other name as not offered.
 *
 * - `min_should_match("a OR b OR c", N)`: at least N of the string's top-level clauses
 *   match (required `+x` and prohibited `-x` clauses keep their meaning).
 * - `complex("words", N)`: the words (trailing `*` prefixes allowed) occur within N
 *   positions of each other, in any order.
 * - `similar_documents("text")`: records most like a text: any of its salient words
 *   (the parser picked and weighted them, dsl/fulltext/similar.ts), ranked by relevance.
 */
export type SearchFunction =
  | { readonly kind: 'min_should_match'; readonly min: number }
  | { readonly kind: 'complex'; readonly distance: number }
  | { readonly kind: 'similar_documents' };

/** The most combinations `min_should_match` expands into (C(clauses, min)). */
export const MAX_MIN_SHOULD_MATCH_COMBINATIONS = 1000;

/** The widest `complex()` distance: a phrase's `~N` takes at most six digits too. */
export const MAX_COMPLEX_DISTANCE = 999_999;

export type SearchFunctionCheck =
  | { readonly ok: true; readonly fn: SearchFunction }
  | {
      readonly ok: false;
      readonly code: 'SCHEMA_SEARCH_FUNCTION_ARGUMENTS' | 'SCHEMA_MIN_SHOULD_MATCH_TOO_BROAD';
      readonly params: Readonly<Record<string, string | number>>;
      readonly span: Span;
    };

/** n choose k, stopping early once above `cap`. */
export function combinations(n: number, k: number, cap = Number.MAX_SAFE_INTEGER): number {
  let result = 1;
  for (let i = 1; i <= k; i++) {
    result = (result * (n - k + i)) / i;
    if (result > cap) return result;
  }
  return Math.round(result);
}

/** Reads and checks `for NAME("text", N)`. */
export function checkSearchFunction(call: FunctionCall, ast: FullTextNode): SearchFunctionCheck {
  const name = call.name.value.toLowerCase();
  const bad = (problem: string, span: Span = call.span): SearchFunctionCheck => ({
    ok: false,
    code: 'SCHEMA_SEARCH_FUNCTION_ARGUMENTS',
    params: { name, problem },
    span,
  });
  if (name === 'similar_documents') return checkSimilarDocuments(call, ast, bad);
  const what = name === 'complex' ? 'the largest distance' : 'how many clauses must match';
  if (call.args.length !== 2) return bad(`it takes two arguments, the search string and ${what}`);
  const second = call.args[1];
  if (second?.kind !== 'PositionalArgument') return bad(`give ${what} as a plain number`, second?.span);
  const value = second.value;
  const n =
    value.kind === 'Number' && value.integer
      ? value.value
      : value.kind === 'String' && /^\d+$/.test(value.value.trim())
        ? Number(value.value.trim())
        : undefined;
  if (n === undefined || n < 1) return bad(`${what} must be a whole number of 1 or more`, value.span);
  if (name === 'complex') {
    // The same bound as a phrase's `~N` (six digits): a wider window matches nothing more.
    if (n > MAX_COMPLEX_DISTANCE) {
      return bad(`${what} must be at most ${MAX_COMPLEX_DISTANCE}`, value.span);
    }
    const problem = complexProblem(ast);
    if (problem !== undefined) return bad(problem.text, problem.span);
    return { ok: true, fn: { kind: 'complex', distance: n } };
  }
  const clauses = topLevelClauses(ast).optional.length;
  if (n > clauses) {
    return bad(`${n} clauses must match but the search string has ${clauses} optional clause(s)`, value.span);
  }
  const count = combinations(clauses, n, MAX_MIN_SHOULD_MATCH_COMBINATIONS);
  if (count > MAX_MIN_SHOULD_MATCH_COMBINATIONS) {
    return {
      ok: false,
      code: 'SCHEMA_MIN_SHOULD_MATCH_TOO_BROAD',
      params: { min: n, clauses, combinations: Math.round(count), max: MAX_MIN_SHOULD_MATCH_COMBINATIONS },
      span: call.span,
    };
  }
  return { ok: true, fn: { kind: 'min_should_match', min: n } };
}

/** complex() takes words, trailing-`*` prefixes and phrases side by side; nothing else. */
function complexProblem(node: FullTextNode): { readonly text: string; readonly span: Span } | undefined {
  switch (node.kind) {
    case 'TextTerm':
      if (node.wildcard && !/^[^?*]+\*$/.test(node.text)) {
        return { text: `only a trailing * is offered inside complex(), not '${node.text}'`, span: node.span };
      }
      return undefined;
    case 'TextPhrase':
      if (node.proximity !== undefined) return { text: 'the distance goes in the second argument', span: node.span };
      return undefined;
    case 'TextAnd':
      for (const operand of node.operands) {
        const problem = complexProblem(operand);
        if (problem !== undefined) return problem;
      }
      return undefined;
    case 'TextOr':
    case 'TextNot':
    case 'TextRequired':
    case 'TextProhibited':
    case 'TextGroup':
      return {
        text: 'it takes words side by side; OR, NOT, +, - and parentheses are not offered inside complex()',
        span: node.span,
      };
  }
}

/** similar_documents("text"): one string with at least one word that is not a stop word. */
function checkSimilarDocuments(
  call: FunctionCall,
  ast: FullTextNode,
  bad: (problem: string, span?: Span) => SearchFunctionCheck,
): SearchFunctionCheck {
  if (call.args.length !== 1) {
    return bad('it takes one argument, the text to find similar records to', call.args[1]?.span ?? call.span);
  }
  if (ast.kind === 'TextPhrase' && ast.words.length === 0) {
    return bad('the text has no words to compare records by (only stop words, numbers or punctuation)', ast.span);
  }
  return { ok: true, fn: { kind: 'similar_documents' } };
}
