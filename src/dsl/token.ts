/**
 * The tokens of the query language (spec/dsl.md §1). Keywords are not a token type: they
 * are names the parser recognises in context, case-insensitively, because several of them
 * (`count`, `FOR`, `in`) are also field or indicator names.
 */
export type TokenType = 'name' | 'string' | 'number' | 'punct' | 'eof';

/** Set on string tokens. */
export const STRING_TRIPLE = 1;
/** Set on string tokens whose value differs from the source because of `\"` or `\\`. */
export const STRING_ESCAPED = 2;

export interface Token {
  readonly type: TokenType;
  readonly start: number;
  readonly end: number;
  /**
   * name: as written; string: decoded content; number: as written; punct: the symbol
   * (`[ ] { } ( ) , + - = != > >= < <= ~ : @ .`); eof: empty.
   */
  readonly value: string;
  /** `STRING_*` bits for strings, 0 otherwise. */
  readonly flags: number;
}
