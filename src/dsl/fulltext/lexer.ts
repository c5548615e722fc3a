import { QuarryError, type ErrorCode } from '../../errors/index.ts';
import { describeChar } from '../lexer.ts';

/** Tokens of the full-text sub-language (spec/dsl.md §3). Offsets index the decoded string. */
export type TextTokenType =
  'term' | 'phrase' | 'and' | 'or' | 'not' | 'plus' | 'minus' | 'lparen' | 'rparen' | 'tilde' | 'boost' | 'eof';

export interface TextToken {
  readonly type: TextTokenType;
  readonly start: number;
  readonly end: number;
  /**
   * term: unescaped text; phrase: unescaped content; tilde: the digits after `~` ('' if
   * none); boost: the number after `^` ('' if none); operators: as written.
   */
  readonly text: string;
  /** term only: an unescaped `?` or `*` occurs. */
  readonly wildcard: boolean;
}

/** Where the decoded string sits in the query, for positioned errors. */
export interface TextSource {
  /** The whole query. */
  readonly query: string;
  /** Decoded-string offset → query offset. */
  readonly at: (index: number) => number;
}

const BACKSLASH = 92;
const QUOTE = 34;

export function isTextSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x3000 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x1680 ||
    c === 0x202f ||
    c === 0x205f
  );
}

/** Characters that end a term unless escaped (spec/dsl.md §3), plus whitespace. */
function endsTerm(c: number): boolean {
  switch (c) {
    case 94: // ^
    case 34: // "
    case 58: // :
    case 126: // ~
    case 91: // [
    case 93: // ]
    case 123: // {
    case 125: // }
    case 40: // (
    case 41: // )
    case 33: // !
    case 124: // |
    case 38: // &
    case 43: // +
      return true;
    default:
      return isTextSpace(c);
  }
}

/** A positioned error inside the full-text string; `start`/`end` index the decoded string. */
export function textError(
  source: TextSource,
  code: ErrorCode,
  start: number,
  end: number,
  params: Readonly<Record<string, string | number>> = {},
): QuarryError {
  return QuarryError.of(code, { params, span: { start: source.at(start), end: source.at(end) }, source: source.query });
}

/**
 * Splits a decoded full-text string into tokens. Upper-case `AND`/`OR`/`NOT` (unescaped)
 * are operators; any other word, including lower-case `and`/`or`, is a term.
 */
export function tokenizeText(text: string, source: TextSource): TextToken[] {
  const tokens: TextToken[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isTextSpace(c)) {
      i++;
      continue;
    }
    const start = i;
    switch (c) {
      case QUOTE: {
        i = scanPhrase(text, i, source, tokens);
        continue;
      }
      case 40:
        op(tokens, text, 'lparen', i, ++i);
        continue;
      case 41:
        op(tokens, text, 'rparen', i, ++i);
        continue;
      case 33:
        op(tokens, text, 'not', i, ++i);
        continue;
      case 43:
        op(tokens, text, 'plus', i, ++i);
        continue;
      case 45:
        op(tokens, text, 'minus', i, ++i);
        continue;
      case 38:
      case 124: {
        const pair = c === 38 ? '&&' : '||';
        if (text.charCodeAt(i + 1) === c) {
          op(tokens, text, c === 38 ? 'and' : 'or', i, (i += 2));
          continue;
        }
        throw textError(source, 'DSL_FULLTEXT_UNEXPECTED', i, i + 1, {
          expected: `'${pair}' (or \\${pair[0] ?? ''} to search for the character)`,
          found: `'${pair[0] ?? ''}'`,
        });
      }
      case 126: {
        i++;
        while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
        tokens.push({ type: 'tilde', start, end: i, text: text.slice(start + 1, i), wildcard: false });
        continue;
      }
      case 94: {
        // `^N` boosts the term, phrase or group written right before it; the parser checks where it stands.
        const digits = /^\d+(?:\.\d+)?/.exec(text.slice(i + 1, i + 12));
        i += 1 + (digits ? digits[0].length : 0);
        tokens.push({ type: 'boost', start, end: i, text: digits ? digits[0] : '', wildcard: false });
        continue;
      }
      case 58:
        throw textError(source, 'DSL_FULLTEXT_UNSUPPORTED_SYNTAX', i, i + 1, {
          feature: "field searches ('field:term')",
        });
      case 91:
      case 93:
      case 123:
      case 125:
        throw textError(source, 'DSL_FULLTEXT_UNSUPPORTED_SYNTAX', i, i + 1, {
          feature: `range searches (${describeChar(text[i] ?? '')})`,
        });
      default:
        break;
    }
    // A term: everything up to whitespace or an unescaped special character.
    let value = '';
    let chunk = i;
    let wildcard = false;
    let escaped = false;
    while (i < n) {
      const d = text.charCodeAt(i);
      if (d === BACKSLASH) {
        if (i + 1 >= n) throw textError(source, 'DSL_FULLTEXT_DANGLING_ESCAPE', i, i + 1);
        value += text.slice(chunk, i);
        const cp = text.codePointAt(i + 1) ?? 0;
        const width = cp > 0xffff ? 2 : 1;
        value += text.slice(i + 1, i + 1 + width);
        escaped = true;
        i += 1 + width;
        chunk = i;
        continue;
      }
      if (endsTerm(d)) break;
      if (d === 63 || d === 42) wildcard = true;
      i++;
    }
    value += text.slice(chunk, i);
    if (!escaped && (value === 'AND' || value === 'OR' || value === 'NOT')) {
      op(tokens, text, value === 'AND' ? 'and' : value === 'OR' ? 'or' : 'not', start, i);
      continue;
    }
    tokens.push({ type: 'term', start, end: i, text: value, wildcard });
  }
  tokens.push({ type: 'eof', start: n, end: n, text: '', wildcard: false });
  return tokens;
}

function op(tokens: TextToken[], text: string, type: TextTokenType, start: number, end: number): void {
  tokens.push({ type, start, end, text: text.slice(start, end), wildcard: false });
}

function scanPhrase(text: string, start: number, source: TextSource, tokens: TextToken[]): number {
  const n = text.length;
  let i = start + 1;
  let chunk = i;
  let value = '';
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) {
      if (i + 1 >= n) throw textError(source, 'DSL_FULLTEXT_DANGLING_ESCAPE', i, i + 1);
      value += text.slice(chunk, i) + (text[i + 1] ?? '');
      i += 2;
      chunk = i;
      continue;
    }
    if (c === QUOTE) {
      value += text.slice(chunk, i);
      tokens.push({ type: 'phrase', start, end: i + 1, text: value, wildcard: false });
      return i + 1;
    }
    i++;
  }
  throw textError(source, 'DSL_FULLTEXT_UNTERMINATED_PHRASE', start, start + 1);
}
