/**
 * The dialect-neutral form of a full-text search (spec/dsl.md §3), lowered from the
 * parser's full-text sub-AST. Lucene-style `+`/`-`, implicit conjunction, groups and the
 * person-name rules are resolved here, so each dialect only renders a small boolean tree,
 * through one walk (`fulltext-render.ts`) with its own syntax: SQLite FTS5 in
 * `sqlite/fts5.ts`, PostgreSQL tsquery in `postgres/tsquery.ts`.
 */

/** A literal word (the dialect's tokenizer may split it further, e.g. `covid-19`). */
export interface TextWord {
  readonly kind: 'word';
  readonly text: string;
  /** `word^N`: counts N times in relevance; absent means 1. Never changes what matches. */
  readonly weight?: number;
}

/** `te*`: every indexed token starting with `text`. */
export interface TextPrefix {
  readonly kind: 'prefix';
  readonly text: string;
  readonly weight?: number;
}

/**
 * A term with `?` (one character) or a `*` that is not only at the end (`te*t`, `*est`).
 * Index engines cannot match these directly; the dialect expands the pattern against the
 * index vocabulary (see `sqlite/fts5.ts`, `postgres/tsquery.ts`).
 */
export interface TextPattern {
  readonly kind: 'pattern';
  readonly pattern: string;
  readonly weight?: number;
}

/** One position of a phrase: a word, or (for initials in person names) a prefix. */
export interface PhrasePart {
  readonly text: string;
  readonly prefix: boolean;
}

/**
 * Words in order. With `near`, the words must occur within `near` positions of each other
 * in any order (`"formal model"~10`, person names).
 */
export interface TextPhraseExpr {
  readonly kind: 'phrase';
  readonly parts: readonly PhrasePart[];
  readonly near?: number;
  readonly weight?: number;
}

export interface TextAll {
  readonly kind: 'all';
  readonly items: readonly TextExpr[];
}

export interface TextAny {
  readonly kind: 'any';
  readonly items: readonly TextExpr[];
}

export interface TextNegation {
  readonly kind: 'not';
  readonly item: TextExpr;
}

export type TextExpr = TextWord | TextPrefix | TextPattern | TextPhraseExpr | TextAll | TextAny | TextNegation;
