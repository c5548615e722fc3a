import { BUDGETS } from '../budgets.ts';
import type { FullTextNode, Span, TextPhrase, TextTerm } from '../ast.ts';
import { frozen, frozenList, span as makeSpan } from '../freeze.ts';
import { isTextSpace, textError, tokenizeText, type TextSource, type TextToken } from './lexer.ts';

export interface FullTextBudgets {
  readonly maxDepth: number;
  readonly maxFullTextClauses: number;
}

/**
 * Parses the decoded content of a `for "..."` string (spec/dsl.md §3) into its own tree.
 * Spans point into the whole query through `source.at`, so errors inside the string show
 * the right column even after `\"` escapes.
 *
 * @example
 * parseFullText('"digital humanities"~5 +ontology', { query, at })
 * // TextAnd [ TextPhrase(words: digital humanities, proximity 5), TextRequired(TextTerm ontology) ]
 */
export function parseFullText(text: string, source: TextSource, budgets: FullTextBudgets = BUDGETS): FullTextNode {
  let empty = true;
  for (let k = 0; k < text.length; k++) {
    if (!isTextSpace(text.charCodeAt(k))) {
      empty = false;
      break;
    }
  }
  if (empty) {
    throw textError(source, 'DSL_FULLTEXT_EMPTY', 0, text.length);
  }
  return new TextParser(text, source, budgets).parseAll();
}

function describeTextToken(token: TextToken): string {
  switch (token.type) {
    case 'eof':
      return 'the end of the search string';
    case 'term':
      return `the term '${clip(token.text)}'`;
    case 'phrase':
      return `the phrase "${clip(token.text)}"`;
    case 'tilde':
      return `'~${token.text}'`;
    case 'boost':
      return `'^${token.text}'`;
    case 'and':
    case 'or':
    case 'not':
    case 'plus':
    case 'minus':
    case 'lparen':
    case 'rparen':
      return `'${token.text}'`;
  }
}

function clip(text: string): string {
  return text.length > 30 ? `${text.slice(0, 30)}...` : text;
}

const OPERAND = "a term, a phrase or '('";

class TextParser {
  private readonly tokens: TextToken[];
  private pos = 0;
  private depth = 0;
  private clauses = 0;

  constructor(
    text: string,
    private readonly source: TextSource,
    private readonly budgets: FullTextBudgets,
  ) {
    this.tokens = tokenizeText(text, source);
  }

  private peek(): TextToken {
    return this.tokens[this.pos] ?? (this.tokens[this.tokens.length - 1] as TextToken);
  }

  private next(): TextToken {
    const token = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos++;
    return token;
  }

  private span(start: number, end: number): Span {
    return makeSpan(this.source.at(start), this.source.at(end));
  }

  private unexpected(expected: string, token: TextToken = this.peek()): never {
    throw textError(this.source, 'DSL_FULLTEXT_UNEXPECTED', token.start, Math.max(token.end, token.start), {
      expected,
      found: describeTextToken(token),
    });
  }

  private enter(token: TextToken): void {
    if (++this.depth > this.budgets.maxDepth) {
      throw textError(this.source, 'DSL_TOO_DEEP', token.start, token.end, { max: this.budgets.maxDepth });
    }
  }

  /** text-query := text-or EOF */
  parseAll(): FullTextNode {
    const node = this.parseOr();
    const token = this.peek();
    if (token.type !== 'eof') {
      this.unexpected(
        token.type === 'rparen'
          ? "an operator, a term or the end of the search string (this ')' has no '(')"
          : 'an operator, a term or the end of the search string',
      );
    }
    return node;
  }

  /** text-or := text-and { ("OR" | "||") text-and } */
  private parseOr(): FullTextNode {
    const first = this.parseAnd();
    if (this.peek().type !== 'or') return first;
    const operands: FullTextNode[] = [first];
    while (this.peek().type === 'or') {
      this.next();
      operands.push(this.parseAnd());
    }
    const last = operands[operands.length - 1] as FullTextNode;
    return frozen({ kind: 'TextOr', operands: frozenList(operands), span: makeSpan(first.span.start, last.span.end) });
  }

  /** text-and := text-unary { [ "AND" | "&&" ] text-unary }   -- adjacency means AND */
  private parseAnd(): FullTextNode {
    const first = this.parseUnary();
    const operands: FullTextNode[] = [first];
    for (;;) {
      const type = this.peek().type;
      if (type === 'and') {
        this.next();
        operands.push(this.parseUnary());
      } else if (
        type === 'term' ||
        type === 'phrase' ||
        type === 'lparen' ||
        type === 'not' ||
        type === 'plus' ||
        type === 'minus'
      ) {
        operands.push(this.parseUnary());
      } else if (type === 'tilde') {
        this.tildeWithoutOperand();
      } else if (type === 'boost') {
        this.boostWithoutOperand();
      } else {
        break;
      }
    }
    if (operands.length === 1) return first;
    const last = operands[operands.length - 1] as FullTextNode;
    return frozen({ kind: 'TextAnd', operands: frozenList(operands), span: makeSpan(first.span.start, last.span.end) });
  }

  /** text-unary := ("NOT" | "!") text-unary | "+" text-unary | "-" text-unary | text-primary */
  private parseUnary(): FullTextNode {
    const token = this.peek();
    if (token.type === 'not' || token.type === 'plus' || token.type === 'minus') {
      this.next();
      this.enter(token);
      const operand = this.parseUnary();
      this.depth--;
      const span = makeSpan(this.source.at(token.start), operand.span.end);
      if (token.type === 'not') return frozen({ kind: 'TextNot', operand, span });
      if (token.type === 'plus') return frozen({ kind: 'TextRequired', operand, span });
      return frozen({ kind: 'TextProhibited', operand, span });
    }
    return this.parsePrimary();
  }

  /** text-primary := TERM | PHRASE [ "~" INT ] | "(" text-or ")" */
  private parsePrimary(): FullTextNode {
    const token = this.peek();
    switch (token.type) {
      case 'term':
        this.next();
        return this.term(token);
      case 'phrase':
        this.next();
        return this.phrase(token);
      case 'lparen': {
        this.next();
        this.enter(token);
        if (this.peek().type === 'rparen') this.unexpected(`${OPERAND} inside the parentheses`);
        const body = this.parseOr();
        const close = this.peek();
        if (close.type !== 'rparen') this.unexpected("')' to close the '(' opened earlier");
        this.next();
        this.depth--;
        if (this.peek().type === 'tilde') {
          const tilde = this.peek();
          throw textError(this.source, 'DSL_FULLTEXT_PROXIMITY_AFTER_GROUP', tilde.start, tilde.end);
        }
        if (this.peek().type === 'boost') {
          const boost = this.peek();
          throw textError(this.source, 'DSL_FULLTEXT_UNSUPPORTED_SYNTAX', boost.start, boost.end, {
            feature: "boosting a parenthesised group ('(...)^N'; boost each term or phrase instead)",
          });
        }
        return frozen({ kind: 'TextGroup', body, span: this.span(token.start, close.end) });
      }
      case 'tilde':
        return this.tildeWithoutOperand();
      case 'boost':
        return this.boostWithoutOperand();
      case 'and':
      case 'or':
      case 'not':
      case 'plus':
      case 'minus':
      case 'rparen':
      case 'eof':
        return this.unexpected(OPERAND);
    }
  }

  private tildeWithoutOperand(): never {
    const token = this.peek();
    throw textError(this.source, 'DSL_FULLTEXT_UNEXPECTED', token.start, token.end, {
      expected: `${OPERAND} ('~N' must follow a phrase directly)`,
      found: describeTextToken(token),
    });
  }

  private boostWithoutOperand(): never {
    const token = this.peek();
    throw textError(this.source, 'DSL_FULLTEXT_UNEXPECTED', token.start, token.end, {
      expected: `${OPERAND} ('^N' must follow a term or phrase directly)`,
      found: describeTextToken(token),
    });
  }

  /**
   * [ "^" number ] right after `end` (no space between): the relevance weight of the term or
   * phrase that ends there. Returns undefined when no boost follows.
   */
  private boostAfter(end: number): { readonly value: number; readonly end: number } | undefined {
    const token = this.peek();
    if (token.type !== 'boost' || token.start !== end) return undefined;
    if (token.text.length === 0) {
      const following = this.tokens[this.pos + 1];
      const found =
        following === undefined || following.type === 'eof'
          ? 'the end of the search string'
          : describeTextToken(following);
      throw textError(this.source, 'DSL_FULLTEXT_INVALID_BOOST', token.start, token.end, { found });
    }
    this.next();
    return { value: Number(token.text), end: token.end };
  }

  private countClause(token: TextToken): void {
    if (++this.clauses > this.budgets.maxFullTextClauses) {
      throw textError(this.source, 'DSL_TOO_MANY_FULLTEXT_CLAUSES', token.start, token.end, {
        max: this.budgets.maxFullTextClauses,
      });
    }
  }

  /** TERM [ "^" number ]   -- not wildcards only; no "~" after it */
  private term(token: TextToken): TextTerm {
    this.countClause(token);
    if (token.wildcard && /^[?*]+$/.test(token.text)) {
      throw textError(this.source, 'DSL_FULLTEXT_LONE_WILDCARD', token.start, token.end, { term: `'${token.text}'` });
    }
    const after = this.peek();
    if (after.type === 'tilde') {
      throw textError(this.source, 'DSL_FULLTEXT_UNSUPPORTED_SYNTAX', after.start, after.end, {
        feature: "fuzzy matching ('term~'; proximity '~N' needs a phrase)",
      });
    }
    const boost = this.boostAfter(token.end);
    return frozen({
      kind: 'TextTerm',
      text: token.text,
      wildcard: token.wildcard,
      ...(boost ? { boost: boost.value } : {}),
      span: this.span(token.start, boost ? boost.end : token.end),
    });
  }

  /** PHRASE [ "~" digits ] [ "^" number ]   -- at least one word */
  private phrase(token: TextToken): TextPhrase {
    this.countClause(token);
    const words = token.text.split(/\s+/u).filter((w) => w.length > 0);
    if (words.length === 0) throw textError(this.source, 'DSL_FULLTEXT_EMPTY_PHRASE', token.start, token.end);
    const after = this.peek();
    if (after.type !== 'tilde') {
      const boost = this.boostAfter(token.end);
      return frozen({
        kind: 'TextPhrase',
        text: token.text,
        words: frozenList(words),
        ...(boost ? { boost: boost.value } : {}),
        span: this.span(token.start, boost ? boost.end : token.end),
      });
    }
    this.next();
    if (after.text.length === 0 || after.text.length > 6) {
      const following = this.peek();
      const found =
        after.text.length > 6
          ? `'~${after.text}' (too large)`
          : following.type === 'eof'
            ? 'the end of the search string'
            : describeTextToken(following);
      throw textError(this.source, 'DSL_FULLTEXT_INVALID_PROXIMITY', after.start, after.end, { found });
    }
    const boost = this.boostAfter(after.end);
    return frozen({
      kind: 'TextPhrase',
      text: token.text,
      words: frozenList(words),
      proximity: Number(after.text),
      ...(boost ? { boost: boost.value } : {}),
      span: this.span(token.start, boost ? boost.end : after.end),
    });
  }
}
