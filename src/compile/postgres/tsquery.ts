/**
 * THE escaping function for PostgreSQL full text: every user word reaches `to_tsquery` only
 * through `quoteLexeme`, after being cut into index words exactly as the documents were
 * (`model/index-words.ts`: letters and digits, folded), so no user input can be read as
 * tsquery syntax (`&`, `|`, `!`, `<->`, `:*`, weights, parentheses).
 *
 * The boolean shape is the walk shared with SQLite's FTS5 (`../fulltext-render.ts`), so
 * both engines match the same records: a search made only of negations is "every record
 * except the matches" (`except`). What is PostgreSQL's own is here: a word is a phrase of
 * its index words, and a NEAR group (`"a b"~N`, person names) becomes the alternatives of
 * word orders and gaps that fit in N intervening words (a large group falls back to all
 * words anywhere, and says so in a warning).
 */
import { indexWords } from '../../model/index-words.ts';
import { combinations } from '../../schema/search-functions.ts';
import type { TextExpr } from '../text-expr.ts';
import { grouped, renderMatch, type MatchSyntax } from '../fulltext-render.ts';

export type TsMatch =
  | { readonly kind: 'match'; readonly query: string }
  | { readonly kind: 'except'; readonly query: string }
  | { readonly kind: 'none' }
  | { readonly kind: 'all' };

export interface TsQueryOptions {
  /** Weight labels the search index reads (`A`, `AB`); absent: every label. */
  readonly labels?: string;
  /** Expands a wildcard pattern (GLOB form) into the indexed words it matches. */
  readonly expandPattern: (glob: string) => readonly string[];
  /** Notes for `_warnings`. */
  readonly warn?: (message: string) => void;
}

/** Alternatives past this many make a NEAR group fall back to "all words anywhere". */
export const MAX_NEAR_ALTERNATIVES = 256;

/** The one quoting rule: a tsquery lexeme in single quotes, quotes and backslashes doubled. */
export function quoteLexeme(word: string): string {
  return `'${word.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/**
 * @example toTsQuery({ kind: 'word', text: 'COVID-19' }, { labels: 'A', expandPattern })
 *   // { kind: 'match', query: "'covid':A <-> '19':A" }
 */
export function toTsQuery(expr: TextExpr, options: TsQueryOptions): TsMatch {
  const rendered = renderMatch(expr, tsQuerySyntax(options));
  switch (rendered.kind) {
    case 'empty':
    case 'none':
      return { kind: 'none' };
    case 'all':
      return { kind: 'all' };
    case 'pos':
      return { kind: 'match', query: rendered.text };
    case 'neg':
      return { kind: 'except', query: rendered.text };
  }
}

function lexeme(word: string, prefix: boolean, options: TsQueryOptions): string {
  const suffix = `${prefix ? '*' : ''}${options.labels ?? ''}`;
  return suffix === '' ? quoteLexeme(word) : `${quoteLexeme(word)}:${suffix}`;
}

/** A word the tokenizer may cut in several (`covid-19`): a phrase of its index words. */
function wordPhrase(text: string, prefix: boolean, options: TsQueryOptions): string | undefined {
  const words = indexWords(text);
  if (words.length === 0) return undefined;
  return words.map((w, k) => lexeme(w, prefix && k === words.length - 1, options)).join(' <-> ');
}

/** tsquery's operators for the shared walk (`../fulltext-render.ts`). */
function tsQuerySyntax(options: TsQueryOptions): MatchSyntax {
  return {
    and: ' & ',
    or: ' | ',
    andNot: ' & !',
    followedBy: ' <-> ',
    // A boost changes only relevance, and is not written into a tsquery: the matches are the same.
    repeatWeighted: false,
    term: (text, prefix) => wordPhrase(text, prefix, options),
    expand: (pattern) => options.expandPattern(patternGlob(pattern)),
    tokens: (tokens) =>
      grouped(
        tokens.map((t) => lexeme(t, false, options)),
        ' | ',
      ),
    near: (phrases, distance) => nearGroup(phrases, distance, options),
  };
}

/** The GLOB form of a user wildcard pattern over the folded word list (`[` literal). */
export function patternGlob(pattern: string): string {
  return pattern.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replaceAll('[', '[[]');
}

/** Two or more phrases within `distance` words of each other: the alternatives, or all of them past the cap. */
function nearGroup(phrases: readonly string[], distance: number, options: TsQueryOptions): string {
  const alternatives = nearAlternatives(phrases, distance);
  if (alternatives === undefined) {
    options.warn?.(
      `A proximity search of ${phrases.length} words within ${distance} was run as "all of these words" on this database.`,
    );
    return grouped(phrases, ' & ');
  }
  return grouped(alternatives, ' | ');
}

/**
 * Every order of the phrases with gaps `<d>` whose intervening words add up to at most
 * `near` (FTS5's NEAR), or undefined when there would be more than MAX_NEAR_ALTERNATIVES.
 */
function nearAlternatives(phrases: readonly string[], near: number): string[] | undefined {
  // Counted before they are listed: the gap sets are C(near + gaps, gaps), which for a wide
  // window (`"a b c"~999999`) would take more memory than the process has.
  const orders = permutations(phrases.length);
  const gapCount = combinations(near + phrases.length - 1, phrases.length - 1, MAX_NEAR_ALTERNATIVES);
  if (orders.length * gapCount > MAX_NEAR_ALTERNATIVES) return undefined;
  const gapSets: number[][] = [];
  const gaps = (left: number, budget: number, acc: number[]): void => {
    if (left === 0) {
      gapSets.push(acc);
      return;
    }
    for (let extra = 0; extra <= budget; extra++) gaps(left - 1, budget - extra, [...acc, extra + 1]);
  };
  gaps(phrases.length - 1, near, []);
  const out: string[] = [];
  for (const order of orders) {
    for (const set of gapSets) {
      let text = `(${phrases[order[0] as number] as string})`;
      set.forEach((d, k) => {
        text += ` <${d}> (${phrases[order[k + 1] as number] as string})`;
      });
      out.push(text);
    }
  }
  return out;
}

function permutations(n: number): number[][] {
  if (n > 6) return Array.from({ length: 1000 }, () => []);
  const out: number[][] = [];
  const walk = (rest: number[], acc: number[]): void => {
    if (rest.length === 0) out.push(acc);
    rest.forEach((x, k) => walk([...rest.slice(0, k), ...rest.slice(k + 1)], [...acc, x]));
  };
  walk(
    Array.from({ length: n }, (_, k) => k),
    [],
  );
  return out;
}
