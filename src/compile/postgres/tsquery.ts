/**
 * THE escaping function for PostgreSQL full text: every user word reaches `to_tsquery` only
 * through `quoteLexeme`, after being cut into index words exactly as the documents were
 * (`model/index-words.ts`: letters and digits, folded), so no user input can be read as
 * tsquery syntax (`&`, `|`, `!`, `<->`, `:*`, weights, parentheses).
 *
 * The boolean shape follows SQLite's FTS5 renderer (`../sqlite/fts5.ts`) so both engines
 * match the same records: a search made only of negations is "every record except the
 * matches" (`except`), and a NEAR group (`"a b"~N`, person names) becomes the alternatives
 * of word orders and gaps that fit in N intervening words (a large group falls back to all
 * words anywhere, and says so in a warning).
 */
import { indexWords } from '../../model/index-words.ts';
import { combinations } from '../../schema/search-functions.ts';
import type { PhrasePart, TextExpr } from '../text-expr.ts';
import { ALL, EMPTY, NONE, negate, type Rendered } from '../rendered-match.ts';

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
  const rendered = render(expr, options);
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

const group = (texts: readonly string[], op: '&' | '|'): string =>
  texts.length === 1 ? (texts[0] as string) : texts.map((t) => `(${t})`).join(` ${op} `);

function render(expr: TextExpr, options: TsQueryOptions): Rendered {
  switch (expr.kind) {
    case 'word':
    case 'prefix': {
      const text = wordPhrase(expr.text, expr.kind === 'prefix', options);
      return text === undefined ? EMPTY : { kind: 'pos', text };
    }
    case 'pattern': {
      const tokens = [...new Set(options.expandPattern(patternGlob(expr.pattern)))];
      if (tokens.length === 0) return NONE;
      return {
        kind: 'pos',
        text: group(
          tokens.map((t) => lexeme(t, false, options)),
          '|',
        ),
      };
    }
    case 'phrase':
      return renderPhrase(expr.parts, expr.near, options);
    case 'all':
      return renderAll(expr.items.map((i) => render(i, options)));
    case 'any':
      return renderAny(expr.items.map((i) => render(i, options)));
    case 'not':
      return negate(render(expr.item, options));
  }
}

/** The GLOB form of a user wildcard pattern over the folded word list (`[` literal). */
export function patternGlob(pattern: string): string {
  return pattern.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replaceAll('[', '[[]');
}

function renderPhrase(parts: readonly PhrasePart[], near: number | undefined, options: TsQueryOptions): Rendered {
  const phrases = parts.map((p) => wordPhrase(p.text, p.prefix, options)).filter((t): t is string => t !== undefined);
  if (phrases.length === 0) return EMPTY;
  if (near === undefined || phrases.length === 1) return { kind: 'pos', text: phrases.join(' <-> ') };
  const alternatives = nearAlternatives(phrases, Math.max(0, Math.trunc(near)));
  if (alternatives === undefined) {
    options.warn?.(
      `A proximity search of ${phrases.length} words within ${near} was run as "all of these words" on this database.`,
    );
    return { kind: 'pos', text: group(phrases, '&') };
  }
  return { kind: 'pos', text: group(alternatives, '|') };
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

/** A AND B AND NOT C AND NOT D  =  (A & B) & !(C | D);  only negations: NOT (C | D). */
function renderAll(items: readonly Rendered[]): Rendered {
  const pos: string[] = [];
  const neg: string[] = [];
  for (const r of items) {
    if (r.kind === 'none') return NONE;
    if (r.kind === 'pos') pos.push(r.text);
    if (r.kind === 'neg') neg.push(r.text);
  }
  if (pos.length === 0 && neg.length === 0) return items.some((r) => r.kind === 'all') ? ALL : EMPTY;
  if (neg.length === 0) return { kind: 'pos', text: group(pos, '&') };
  if (pos.length === 0) return { kind: 'neg', text: group(neg, '|') };
  return { kind: 'pos', text: `(${group(pos, '&')}) & !(${group(neg, '|')})` };
}

/** A OR B OR NOT C OR NOT D  =  NOT ((C & D) & !(A | B)). */
function renderAny(items: readonly Rendered[]): Rendered {
  const pos: string[] = [];
  const neg: string[] = [];
  for (const r of items) {
    if (r.kind === 'all') return ALL;
    if (r.kind === 'pos') pos.push(r.text);
    if (r.kind === 'neg') neg.push(r.text);
  }
  if (pos.length === 0 && neg.length === 0) return items.some((r) => r.kind === 'none') ? NONE : EMPTY;
  if (neg.length === 0) return { kind: 'pos', text: group(pos, '|') };
  if (pos.length === 0) return { kind: 'neg', text: group(neg, '&') };
  return { kind: 'neg', text: `(${group(neg, '&')}) & !(${group(pos, '|')})` };
}
