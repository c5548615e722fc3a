/**
 * The dialect-neutral result of rendering one full-text sub-expression into a match string
 * (FTS5's MATCH syntax on SQLite, a tsquery on PostgreSQL), as the shared walk in
 * `fulltext-render.ts` folds constants and negations through it.
 *
 * `pos` rows matching `text`; `neg` rows NOT matching `text`; `none`/`all` constant;
 * `empty` a word with no indexable characters (neutral, dropped).
 */
export type Rendered =
  | { readonly kind: 'pos'; readonly text: string }
  | { readonly kind: 'neg'; readonly text: string }
  | { readonly kind: 'none' }
  | { readonly kind: 'all' }
  | { readonly kind: 'empty' };

export const NONE: Rendered = { kind: 'none' };
export const ALL: Rendered = { kind: 'all' };
export const EMPTY: Rendered = { kind: 'empty' };

/** NOT of a rendered sub-expression: a match string flips sign, constants swap. */
export function negate(r: Rendered): Rendered {
  switch (r.kind) {
    case 'pos':
      return { kind: 'neg', text: r.text };
    case 'neg':
      return { kind: 'pos', text: r.text };
    case 'none':
      return ALL;
    case 'all':
      return NONE;
    case 'empty':
      return EMPTY;
  }
}
