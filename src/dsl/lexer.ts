import { QuarryError } from '../errors/index.ts';
import { BUDGETS } from './budgets.ts';
import { STRING_ESCAPED, STRING_TRIPLE, type Token } from './token.ts';

const QUOTE = 34; // "
const BACKSLASH = 92;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;
}

function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isNamePart(c: number): boolean {
  return isNameStart(c) || isDigit(c);
}

/** Shows one character in a message; invisible ones by code point. */
export function describeChar(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  const invisible =
    cp < 32 ||
    cp === 127 ||
    (cp >= 0x80 && cp <= 0xa0) ||
    cp === 0xfeff ||
    (cp >= 0xd800 && cp <= 0xdfff) ||
    (cp >= 0x2000 && cp <= 0x200f) ||
    cp === 0x3000 ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    cp === 0x202f ||
    cp === 0x205f;
  if (invisible) {
    return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return `'${ch}'`;
}

/**
 * Splits a query into tokens, ending with one `eof` token. Scans char codes (no regular
 * expressions per character) because the lexer sits on the path of every request.
 * Throws a QuarryError for characters outside the language, unterminated strings,
 * malformed numbers and inputs over the length or token budget.
 *
 * @example tokenize('search grants return grants').map((t) => t.value)
 * // ['search', 'grants', 'return', 'grants', '']
 */
export function tokenize(text: string, budgets: { maxQueryLength: number; maxTokens: number } = BUDGETS): Token[] {
  if (text.length > budgets.maxQueryLength) {
    throw QuarryError.of('DSL_QUERY_TOO_LONG', {
      params: { length: text.length, max: budgets.maxQueryLength },
      span: { start: budgets.maxQueryLength, end: text.length },
      source: text,
    });
  }
  const tokens: Token[] = [];
  const n = text.length;
  const maxTokens = budgets.maxTokens;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    const start = i;
    if (isNameStart(c)) {
      i++;
      while (i < n && isNamePart(text.charCodeAt(i))) i++;
      push(tokens, maxTokens, text, { type: 'name', start, end: i, value: text.slice(start, i), flags: 0 });
      continue;
    }
    if (isDigit(c)) {
      i = scanNumber(text, i);
      push(tokens, maxTokens, text, { type: 'number', start, end: i, value: text.slice(start, i), flags: 0 });
      continue;
    }
    if (c === QUOTE) {
      const token = scanString(text, i);
      i = token.end;
      push(tokens, maxTokens, text, token);
      continue;
    }
    const next = i + 1 < n ? text.charCodeAt(i + 1) : -1;
    let symbol: string | undefined;
    switch (c) {
      case 91:
        symbol = '[';
        break;
      case 93:
        symbol = ']';
        break;
      case 123:
        symbol = '{';
        break;
      case 125:
        symbol = '}';
        break;
      case 40:
        symbol = '(';
        break;
      case 41:
        symbol = ')';
        break;
      case 44:
        symbol = ',';
        break;
      case 43:
        symbol = '+';
        break;
      case 45:
        symbol = '-';
        break;
      case 61:
        symbol = '=';
        break;
      case 126:
        symbol = '~';
        break;
      case 58:
        symbol = ':';
        break;
      case 64:
        symbol = '@';
        break;
      case 46:
        symbol = '.';
        break;
      case 62:
        symbol = next === 61 ? '>=' : '>';
        break;
      case 60:
        symbol = next === 61 ? '<=' : '<';
        break;
      case 33:
        symbol = next === 61 ? '!=' : undefined;
        break;
      default:
        symbol = undefined;
    }
    if (symbol === undefined) {
      const cp = text.codePointAt(i) ?? c;
      const width = cp > 0xffff ? 2 : 1;
      throw QuarryError.of('DSL_UNEXPECTED_CHARACTER', {
        params: { char: describeChar(String.fromCodePoint(cp)) },
        span: { start: i, end: i + width },
        source: text,
      });
    }
    i += symbol.length;
    push(tokens, maxTokens, text, { type: 'punct', start, end: i, value: symbol, flags: 0 });
  }
  tokens.push({ type: 'eof', start: n, end: n, value: '', flags: 0 });
  return tokens;
}

/** Appends a token, enforcing the token budget. (A module function: a closure per call costs.) */
function push(tokens: Token[], maxTokens: number, text: string, token: Token): void {
  if (tokens.length >= maxTokens) {
    throw QuarryError.of('DSL_TOO_MANY_TOKENS', {
      params: { max: maxTokens },
      span: { start: token.start, end: token.end },
      source: text,
    });
  }
  tokens.push(token);
}

/** `digits [ "." digits ] [ ("e"|"E") ["+"|"-"] digits ]`, not followed by a name character. */
function scanNumber(text: string, start: number): number {
  const n = text.length;
  let i = start;
  while (i < n && isDigit(text.charCodeAt(i))) i++;
  let valid = true;
  if (i < n && text.charCodeAt(i) === 46 && i + 1 < n && isDigit(text.charCodeAt(i + 1))) {
    i += 2;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
  }
  const e = i < n ? text.charCodeAt(i) : -1;
  if (e === 101 || e === 69) {
    let j = i + 1;
    const sign = j < n ? text.charCodeAt(j) : -1;
    if (sign === 43 || sign === 45) j++;
    if (j < n && isDigit(text.charCodeAt(j))) {
      i = j;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
  }
  // `2019abc`, `1.2.3`, `3.`: one clear error rather than a puzzling one about the next token.
  let end = i;
  while (
    end < n &&
    (isNamePart(text.charCodeAt(end)) ||
      (text.charCodeAt(end) === 46 && end + 1 < n && isNamePart(text.charCodeAt(end + 1))))
  ) {
    end++;
    valid = false;
  }
  if (!valid) {
    throw QuarryError.of('DSL_INVALID_NUMBER', {
      params: { text: `'${text.slice(start, end)}'` },
      span: { start, end },
      source: text,
    });
  }
  return i;
}

/**
 * A double-quoted string (`\"` and `\\` decoded, any other backslash pair kept as written
 * for the full-text parser) or a triple-quoted one (verbatim up to the first `"""`).
 */
function scanString(text: string, start: number): Token {
  const n = text.length;
  if (text.startsWith('"""', start)) {
    const close = text.indexOf('"""', start + 3);
    if (close < 0) {
      throw QuarryError.of('DSL_UNTERMINATED_STRING', { span: { start, end: start + 3 }, source: text });
    }
    return { type: 'string', start, end: close + 3, value: text.slice(start + 3, close), flags: STRING_TRIPLE };
  }
  let i = start + 1;
  let escaped = false;
  let chunkStart = i;
  let value = '';
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const token: Token = escaped
        ? { type: 'string', start, end: i + 1, value: value + text.slice(chunkStart, i), flags: STRING_ESCAPED }
        : { type: 'string', start, end: i + 1, value: text.slice(start + 1, i), flags: 0 };
      return token;
    }
    if (c === BACKSLASH && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d === QUOTE || d === BACKSLASH) {
        value += text.slice(chunkStart, i) + (d === QUOTE ? '"' : '\\');
        escaped = true;
        i += 2;
        chunkStart = i;
        continue;
      }
      i += 2; // kept as written; the pair cannot end the string
      continue;
    }
    i++;
  }
  throw QuarryError.of('DSL_UNTERMINATED_STRING', { span: { start, end: start + 1 }, source: text });
}

/**
 * Maps offsets in a string token's decoded value back to offsets in the query, so errors
 * and spans inside a full-text string point at the right character.
 *
 * @example const at = stringOffsets(query, token); at(0) // offset of the first content character
 */
export function stringOffsets(text: string, token: Token): (index: number) => number {
  const contentStart = token.start + ((token.flags & STRING_TRIPLE) !== 0 ? 3 : 1);
  if ((token.flags & STRING_ESCAPED) === 0) return (index) => contentStart + index;
  const map = new Int32Array(token.value.length + 1);
  let src = contentStart;
  for (let k = 0; k < token.value.length; k++) {
    map[k] = src;
    const c = text.charCodeAt(src);
    if (c === BACKSLASH) {
      const d = text.charCodeAt(src + 1);
      // `\"`/`\\` stand for one character; other pairs were kept as two.
      if (d === QUOTE || d === BACKSLASH) {
        src += 2;
      } else {
        src += 1;
      }
    } else {
      src += 1;
    }
  }
  map[token.value.length] = src;
  return (index) => map[Math.max(0, Math.min(index, token.value.length))] ?? contentStart;
}
