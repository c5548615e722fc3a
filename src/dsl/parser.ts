import { QuarryError, type ErrorCode, type ErrorParams } from '../errors/index.ts';
import type {
  Argument,
  ArgumentValue,
  ComparisonOperator,
  DescribeQuery,
  ExpertsAnnotation,
  FieldPath,
  FieldSpec,
  FilterNode,
  FullTextClause,
  FullTextNode,
  FunctionCall,
  IdentifyExpertsQuery,
  Name,
  NumberValue,
  ObjectEntry,
  ObjectValue,
  Query,
  ReturnClause,
  ReturnTarget,
  ScalarValue,
  SearchQuery,
  SortSpec,
  Span,
  StringValue,
} from './ast.ts';
import { BUDGETS, type Budgets } from './budgets.ts';
import { frozen, frozenList, span as makeSpan } from './freeze.ts';
import { parseFullText } from './fulltext/parser.ts';
import { salientTerms } from './fulltext/similar.ts';
import { stringOffsets } from './lexer.ts';
import { STRING_TRIPLE, type Token } from './token.ts';

/** Words that cannot name a source or a search index, whatever their case. */
const RESERVED = new Set([
  'search',
  'in',
  'for',
  'where',
  'and',
  'or',
  'not',
  'return',
  'aggregate',
  'sort',
  'by',
  'limit',
  'skip',
  'as',
  'is',
  'describe',
]);

/** Words that cannot be a returned result, because they start or modify a return clause. */
const RETURN_RESERVED = new Set(['return', 'as', 'aggregate', 'sort', 'limit', 'skip', 'where', 'search', 'describe']);

/** Search functions whose first argument is a search string in the full-text language. */
const SEARCH_STRING_FUNCTIONS: ReadonlySet<string> = new Set(['min_should_match', 'complex']);

/** Search functions offered after `for`: those above, and similar_documents (its text is prose). */
const SEARCH_FUNCTIONS: ReadonlySet<string> = new Set([...SEARCH_STRING_FUNCTIONS, 'similar_documents']);

const COMPARISON_OPERATORS: ReadonlySet<string> = new Set(['=', '!=', '>', '<', '>=', '<=', '~']);

const OPERATOR_LIST = "an operator (=, !=, >, <, >=, <=, ~, 'in' or 'is')";

/** "a, b or c" */
function oneOf(options: readonly string[]): string {
  if (options.length <= 1) return options[0] ?? '';
  return `${options.slice(0, -1).join(', ')} or ${options[options.length - 1] ?? ''}`;
}

function clip(text: string): string {
  return text.length > 30 ? `${text.slice(0, 30)}...` : text;
}

/** How a token is named in "Expected ... but found ..." messages. */
export function describeToken(token: Token): string {
  switch (token.type) {
    case 'eof':
      return 'the end of the query';
    case 'string':
      return `the string "${clip(token.value)}"`;
    case 'number':
      return `the number ${token.value}`;
    case 'name':
    case 'punct':
      return `'${token.value}'`;
  }
}

function describeArgument(value: ArgumentValue): string {
  switch (value.kind) {
    case 'String':
      return `the string "${clip(value.value)}"`;
    case 'Number':
      return `the number ${value.raw}`;
    case 'Boolean':
      return `'${String(value.value)}'`;
    case 'Null':
      return "'null'";
    case 'List':
      return 'a [...] list';
    case 'Object':
      return 'a {...} object';
  }
}

const JSON_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/**
 * Decodes the content of a JSON string as written between its quotes. A backslash pair JSON
 * does not define (and `\u` without four hex digits) is kept as written, as in other strings.
 *
 * @example decodeJsonString('Universit\\u00e9 \\"X\\"') // 'Université "X"'
 */
export function decodeJsonString(raw: string): string {
  if (!raw.includes('\\')) return raw;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i] as string;
    if (ch !== '\\' || i + 1 >= raw.length) {
      out += ch;
      continue;
    }
    const next = raw[i + 1] as string;
    const simple = JSON_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i++;
    } else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(raw.slice(i + 2, i + 6))) {
      out += String.fromCharCode(parseInt(raw.slice(i + 2, i + 6), 16));
      i += 5;
    } else {
      out += ch + next;
      i++;
    }
  }
  return out;
}

/**
 * The recursive-descent parser of the query language. The grammar is in `grammar.md`; each
 * method's doc comment gives the rule it implements. Build one per query; use `parse()`
 * from `parse.ts` rather than this class directly.
 */
export class Parser {
  private pos = 0;
  private depth = 0;
  private conditions = 0;

  constructor(
    private readonly text: string,
    private readonly tokens: readonly Token[],
    private readonly budgets: Budgets = BUDGETS,
  ) {}

  // -------------------------------------------------------------------------------------
  // Token helpers
  // -------------------------------------------------------------------------------------

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)] as Token;
  }

  private next(): Token {
    const token = this.peek();
    if (this.pos < this.tokens.length - 1) this.pos++;
    return token;
  }

  /** The end offset of the last consumed token. */
  private lastEnd(): number {
    return this.pos === 0 ? 0 : (this.tokens[this.pos - 1] as Token).end;
  }

  private isKeyword(token: Token, keyword: string): boolean {
    return token.type === 'name' && token.value.length === keyword.length && token.value.toLowerCase() === keyword;
  }

  private atKeyword(keyword: string, offset = 0): boolean {
    return this.isKeyword(this.peek(offset), keyword);
  }

  private atPunct(symbol: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.type === 'punct' && token.value === symbol;
  }

  private error(code: ErrorCode, span: Span, params?: ErrorParams): QuarryError {
    return QuarryError.of(code, {
      ...(params ? { params } : {}),
      span: makeSpan(span.start, span.end),
      source: this.text,
    });
  }

  private unexpected(expected: string, token: Token = this.peek()): never {
    throw this.error(
      'DSL_UNEXPECTED_TOKEN',
      { start: token.start, end: token.end },
      { expected, found: describeToken(token) },
    );
  }

  private expectKeyword(keyword: string): Token {
    if (!this.atKeyword(keyword)) this.unexpected(`'${keyword}'`);
    return this.next();
  }

  private expectPunct(symbol: string, expected = `'${symbol}'`): Token {
    if (!this.atPunct(symbol)) this.unexpected(expected);
    return this.next();
  }

  private duplicate(token: Token, clause: string): never {
    throw this.error('DSL_DUPLICATE_CLAUSE', token, { clause });
  }

  private enter(token: Token): void {
    if (++this.depth > this.budgets.maxDepth) {
      throw this.error('DSL_TOO_DEEP', { start: token.start, end: token.end }, { max: this.budgets.maxDepth });
    }
  }

  private leave(): void {
    this.depth--;
  }

  // -------------------------------------------------------------------------------------
  // Statements
  // -------------------------------------------------------------------------------------

  /** query := ( search | describe | function-call ) EOF */
  parseQuery(): Query {
    const first = this.peek();
    if (first.type === 'eof') {
      throw this.error('DSL_EMPTY_QUERY', { start: 0, end: this.text.length });
    }
    let query: Query;
    if (this.isKeyword(first, 'search')) {
      query = this.parseSearch();
    } else if (this.isKeyword(first, 'describe')) {
      query = this.parseDescribe();
    } else if (first.type === 'name' && this.atPunct('(', 1)) {
      const call = this.parseFunctionCall();
      query = frozen({ kind: 'FunctionCallQuery', call, span: call.span });
    } else if (this.isKeyword(first, 'identify')) {
      const second = this.peek(1);
      if (!this.isKeyword(second, 'experts')) {
        const words = second.type === 'name' ? `identify ${second.value.toLowerCase()}` : 'identify';
        throw this.error(
          'DSL_UNSUPPORTED_STATEMENT',
          { start: first.start, end: second.type === 'name' ? second.end : first.end },
          { statement: words },
        );
      }
      query = this.parseIdentifyExperts();
    } else {
      this.unexpected("'search', 'describe' or a function call");
    }
    if (this.peek().type !== 'eof') this.unexpected('the end of the query');
    return query;
  }

  /**
   * search := "search" SOURCE { full-text | "where" filter } return { return }
   * full-text := [ "in" INDEX ] "for" STRING       -- full-text and where once each, either order
   */
  private parseSearch(): SearchQuery {
    const start = this.next().start;
    const source = this.parseName("a source name after 'search'", RESERVED);
    let fullText: FullTextClause | undefined;
    let filter: FilterNode | undefined;
    for (;;) {
      const token = this.peek();
      if (this.isKeyword(token, 'in') || this.isKeyword(token, 'for')) {
        if (fullText) {
          // `for "x" in authors` most likely means the index: say where it goes.
          if (this.isKeyword(token, 'in') && !this.atKeyword('for', 2)) {
            this.unexpected(`${filter ? "'return'" : "'where' or 'return'"} ('in INDEX' goes before 'for')`);
          }
          throw this.error('DSL_DUPLICATE_CLAUSE', token, { clause: 'for' });
        }
        fullText = this.parseFullTextClause();
      } else if (this.isKeyword(token, 'where')) {
        if (filter) throw this.error('DSL_DUPLICATE_CLAUSE', token, { clause: 'where' });
        this.next();
        filter = this.parseFilter();
      } else {
        break;
      }
    }
    if (!this.atKeyword('return')) {
      const options = [...(fullText ? [] : ["'for'", "'in'"]), ...(filter ? [] : ["'where'"]), "'return'"];
      this.unexpected(oneOf(options));
    }
    const returns: ReturnClause[] = [];
    while (this.atKeyword('return')) returns.push(this.parseReturn());
    return frozen({
      kind: 'SearchQuery',
      source,
      ...(fullText ? { fullText } : {}),
      ...(filter ? { filter } : {}),
      returns: frozenList(returns),
      span: makeSpan(start, this.lastEnd()),
    });
  }

  /**
   * identify := "identify" "experts" "from" "concepts" STRING [ "using" SOURCE ] [ "where" filter ]
   *             return [ "annotate" KIND { "," KIND } [ "overlap" ] "with" "[" STRING { "," STRING } "]" ]
   */
  private parseIdentifyExperts(): IdentifyExpertsQuery {
    const start = this.next().start;
    this.next(); // experts
    this.expectKeyword('from');
    this.expectKeyword('concepts');
    const token = this.peek();
    if (token.type !== 'string') this.unexpected("the concepts as a search string in double quotes after 'concepts'");
    const concepts = this.parseString();
    const conceptsAst = this.parseSearchString(token);
    let using: Name | undefined;
    if (this.atKeyword('using')) {
      this.next();
      using = this.parseName("'publications' or 'grants' after 'using'", RESERVED);
    }
    let filter: FilterNode | undefined;
    if (this.atKeyword('where')) {
      this.next();
      filter = this.parseFilter();
    }
    if (!this.atKeyword('return'))
      this.unexpected(oneOf([...(using || filter ? [] : ["'using'"]), ...(filter ? [] : ["'where'"]), "'return'"]));
    const returns = this.parseReturn('annotate');
    if (this.atKeyword('return')) throw this.error('DSL_DUPLICATE_CLAUSE', this.peek(), { clause: 'return' });
    let annotate: ExpertsAnnotation | undefined;
    if (this.atKeyword('annotate')) {
      const at = this.next().start;
      const kinds = [this.parseName("'coauthorship' or 'organizational' after 'annotate'", RESERVED)];
      while (this.atPunct(',')) {
        this.next();
        kinds.push(this.parseName("'coauthorship' or 'organizational' after ','", RESERVED));
      }
      if (this.atKeyword('overlap')) this.next();
      this.expectKeyword('with');
      if (!this.atPunct('[')) this.unexpected("a list of researcher or organization ids in [...] after 'with'");
      this.next();
      const ids: StringValue[] = [];
      for (;;) {
        if (this.peek().type !== 'string') this.unexpected('a researcher or organization id in double quotes');
        ids.push(this.parseString());
        if (this.atPunct(',')) {
          this.next();
          continue;
        }
        if (!this.atPunct(']')) this.unexpected("',' or ']'");
        this.next();
        break;
      }
      annotate = frozen({
        kinds: frozenList(kinds),
        ids: frozenList(ids),
        span: makeSpan(at, this.lastEnd()),
      });
    }
    return frozen({
      kind: 'IdentifyExpertsQuery',
      concepts,
      conceptsAst,
      ...(using ? { using } : {}),
      ...(filter ? { filter } : {}),
      returns,
      ...(annotate ? { annotate } : {}),
      span: makeSpan(start, this.lastEnd()),
    });
  }

  /** describe := "describe" ( "version" | "schema" | "source" NAME | "entity" NAME ) */
  private parseDescribe(): DescribeQuery {
    const start = this.next().start;
    const token = this.peek();
    const word = token.type === 'name' ? token.value.toLowerCase() : '';
    if (word === 'version' || word === 'schema') {
      this.next();
      return frozen({ kind: 'DescribeQuery', target: word, span: makeSpan(start, token.end) });
    }
    if (word === 'source' || word === 'entity') {
      this.next();
      const name = this.parseName(
        word === 'source' ? "a source name after 'describe source'" : "an entity name after 'describe entity'",
        RESERVED,
      );
      return frozen({ kind: 'DescribeQuery', target: word, name, span: makeSpan(start, name.span.end) });
    }
    return this.unexpected("'version', 'schema', 'source' or 'entity'");
  }

  /**
   * full-text := [ "in" INDEX ] "for" ( STRING | search-function )
   * search-function := NAME "(" STRING { "," argument } ")"
   */
  private parseFullTextClause(): FullTextClause {
    const start = this.peek().start;
    let index: Name | undefined;
    if (this.atKeyword('in')) {
      this.next();
      index = this.parseName("a search index name after 'in'", RESERVED);
    }
    this.expectKeyword('for');
    const first = this.peek();
    if (first.type === 'name' && this.atPunct('(', 1)) return this.parseSearchFunction(start, index);
    if (first.type !== 'string') this.unexpected("a search string in double quotes after 'for'");
    const text = this.parseString();
    const ast = this.parseSearchString(first);
    return frozen({
      kind: 'FullTextClause',
      ...(index ? { index } : {}),
      text,
      ast,
      span: makeSpan(start, text.span.end),
    });
  }

  /** The content of a search string token, in the full-text sub-language (grammar.md §4). */
  private parseSearchString(token: Token): FullTextNode {
    return parseFullText(token.value, { query: this.text, at: stringOffsets(this.text, token) }, this.budgets);
  }

  /**
   * search-function := NAME "(" STRING { "," argument } ")"
   *   -- min_should_match and complex take a search string; similar_documents takes prose,
   *   -- read as its salient words (fulltext/similar.ts); any other name is reported as not offered
   */
  private parseSearchFunction(start: number, index: Name | undefined): FullTextClause {
    const at = this.pos;
    const call = this.parseFunctionCall();
    const name = call.name.value.toLowerCase();
    if (!SEARCH_FUNCTIONS.has(name)) {
      throw this.error('DSL_UNSUPPORTED_SEARCH_FUNCTION', call.name.span, {
        name: call.name.value,
        offered: oneOf([...SEARCH_FUNCTIONS].map((f) => `${f}()`)).replace(' or ', ' and '),
      });
    }
    const firstArg = call.args[0];
    if (firstArg?.kind !== 'PositionalArgument' || firstArg.value.kind !== 'String') {
      const bad = firstArg?.value.span ?? { start: call.name.span.end, end: call.span.end };
      throw this.error(
        'DSL_UNEXPECTED_TOKEN',
        { start: bad.start, end: bad.end },
        {
          expected: `a search string in double quotes as the first argument of ${call.name.value}()`,
          found: firstArg ? describeArgument(firstArg.value) : "')'",
        },
      );
    }
    const text = firstArg.value;
    if (name === 'similar_documents') {
      return frozen({
        kind: 'FullTextClause',
        ...(index ? { index } : {}),
        text,
        ast: similarTermsTree(text),
        call,
        span: makeSpan(start, call.span.end),
      });
    }
    const token = this.tokens.slice(at).find((t) => t.type === 'string' && t.start === text.span.start);
    if (token === undefined) throw new Error('search function argument token not found');
    return frozen({
      kind: 'FullTextClause',
      ...(index ? { index } : {}),
      text,
      ast: this.parseSearchString(token),
      call,
      span: makeSpan(start, call.span.end),
    });
  }

  // -------------------------------------------------------------------------------------
  // Filters
  // -------------------------------------------------------------------------------------

  /** filter := filter-or */
  private parseFilter(): FilterNode {
    return this.parseFilterOr();
  }

  /** filter-or := filter-and { "or" filter-and } */
  private parseFilterOr(): FilterNode {
    const first = this.parseFilterAnd();
    if (!this.atKeyword('or')) return first;
    const operands: FilterNode[] = [first];
    while (this.atKeyword('or')) {
      this.next();
      operands.push(this.parseFilterAnd());
    }
    return frozen({ kind: 'Or', operands: frozenList(operands), span: makeSpan(first.span.start, this.lastEnd()) });
  }

  /**
   * filter-and := filter-not { ( "and" | "not" ) filter-not }
   *   -- binary `not`: `a not b` is `a and not b`
   */
  private parseFilterAnd(): FilterNode {
    const first = this.parseFilterNot();
    if (!this.atKeyword('and') && !this.atBinaryNot()) return first;
    const operands: FilterNode[] = [first];
    for (;;) {
      if (this.atKeyword('and')) {
        this.next();
        operands.push(this.parseFilterNot());
      } else if (this.atBinaryNot()) {
        const token = this.next();
        this.enter(token);
        const operand = this.parseFilterNot();
        this.leave();
        operands.push(frozen({ kind: 'Not', operand, span: makeSpan(token.start, operand.span.end) }));
      } else {
        break;
      }
    }
    return frozen({ kind: 'And', operands: frozenList(operands), span: makeSpan(first.span.start, this.lastEnd()) });
  }

  /** `not` between two conditions (not a field called `not`: `not = 1`). */
  private atBinaryNot(): boolean {
    return this.atKeyword('not') && !this.startsOperator(1);
  }

  /** filter-not := "not" filter-not | filter-primary */
  private parseFilterNot(): FilterNode {
    const token = this.peek();
    // `not = 1` compares a field called "not"; `not year = 1` negates.
    if (this.isKeyword(token, 'not') && !this.startsOperator(1)) {
      this.next();
      this.enter(token);
      const operand = this.parseFilterNot();
      this.leave();
      return frozen({ kind: 'Not', operand, span: makeSpan(token.start, operand.span.end) });
    }
    return this.parseFilterPrimary();
  }

  /** filter-primary := "(" filter ")" | condition */
  private parseFilterPrimary(): FilterNode {
    const token = this.peek();
    if (token.type === 'punct' && token.value === '(') {
      this.next();
      this.enter(token);
      const inner = this.parseFilter();
      this.expectPunct(')', "')' to close the '(' opened earlier, 'and' or 'or'");
      this.leave();
      return inner;
    }
    return this.parseCondition();
  }

  /** Whether the token at `offset` can follow a field name in a condition. */
  private startsOperator(offset: number): boolean {
    const token = this.peek(offset);
    if (token.type === 'punct')
      return COMPARISON_OPERATORS.has(token.value) || token.value === '.' || token.value === '@';
    return this.isKeyword(token, 'in') || this.isKeyword(token, 'is');
  }

  /**
   * condition := "count" "(" field-path ")" OPERATOR number
   *            | field-path OPERATOR value
   *            | field-path ( "in" | "=" ) "[" ( value ":" value | value { "," value } ) "]"
   *            | field-path "is" [ "not" ] "empty"
   * OPERATOR  := "=" | "!=" | ">" | "<" | ">=" | "<=" | "~"
   */
  private parseCondition(): FilterNode {
    const first = this.peek();
    if (first.type === 'punct' && first.value === '@') throw this.error('DSL_UNSUPPORTED_FIELD_OPERATOR', first);
    if (first.type !== 'name') this.unexpected("a condition (field operator value), 'not' or '('");
    if (++this.conditions > this.budgets.maxConditions) {
      throw this.error('DSL_TOO_MANY_CONDITIONS', first, { max: this.budgets.maxConditions });
    }
    if (this.isKeyword(first, 'count') && this.atPunct('(', 1)) {
      this.next();
      this.next();
      const field = this.parseFieldPath('a field name inside count( )');
      this.expectPunct(')');
      const op = this.parseComparisonOperator(false);
      const value = this.parseNumber('a number after the operator');
      return frozen({ kind: 'CountComparison', field, op, value, span: makeSpan(first.start, value.span.end) });
    }
    if (RESERVED.has(first.value.toLowerCase()) && !this.startsOperator(1)) {
      this.unexpected("a condition (field operator value), 'not' or '('");
    }
    const field = this.parseFieldPath('a field name');
    const token = this.peek();
    if (this.isKeyword(token, 'in')) {
      this.next();
      return this.parseInList(field);
    }
    if (this.isKeyword(token, 'is')) {
      this.next();
      const negated = this.atKeyword('not');
      if (negated) this.next();
      const empty = this.expectKeyword('empty');
      const span = { start: field.span.start, end: empty.end };
      return negated ? frozen({ kind: 'IsNotEmpty', field, span }) : frozen({ kind: 'IsEmpty', field, span });
    }
    if (token.type === 'punct' && token.value === '@') throw this.error('DSL_UNSUPPORTED_FIELD_OPERATOR', token);
    const op = this.parseComparisonOperator(true);
    // `field = [a, b]` and `field = [low:high]` are `in` written with `=`.
    if (op === '=' && this.atPunct('[')) return this.parseInList(field);
    const value = this.parseScalar('a value (a string in double quotes or a number)');
    return frozen({ kind: 'Comparison', field, op, value, span: makeSpan(field.span.start, value.span.end) });
  }

  /** OPERATOR := "=" | "!=" | ">" | "<" | ">=" | "<=" | "~" */
  private parseComparisonOperator(allowInIs: boolean): ComparisonOperator {
    const token = this.peek();
    if (token.type === 'punct' && COMPARISON_OPERATORS.has(token.value)) {
      this.next();
      return token.value as ComparisonOperator;
    }
    return this.unexpected(allowInIs ? OPERATOR_LIST : 'an operator (=, !=, >, <, >=, <=)');
  }

  /** in-list := "[" ( value ":" value | value { "," value } ) "]" */
  private parseInList(field: FieldPath): FilterNode {
    this.expectPunct('[', "'[' to start the list");
    const first = this.parseScalar('a value (a string in double quotes or a number)');
    if (this.atPunct(':')) {
      this.next();
      const high = this.parseScalar('the upper bound of the range');
      const close = this.expectPunct(']', "']' to close the range");
      return frozen({ kind: 'InRange', field, low: first, high, span: makeSpan(field.span.start, close.end) });
    }
    const values: ScalarValue[] = [first];
    while (this.atPunct(',')) {
      this.next();
      const value = this.parseScalar("a value after ','");
      if (values.length >= this.budgets.maxInListItems) {
        throw this.error('DSL_IN_LIST_TOO_LONG', value.span, { max: this.budgets.maxInListItems });
      }
      values.push(value);
    }
    const close = this.expectPunct(']', values.length === 1 ? "',', ':' or ']'" : "',' or ']'");
    return frozen({ kind: 'InList', field, values: frozenList(values), span: makeSpan(field.span.start, close.end) });
  }

  // -------------------------------------------------------------------------------------
  // Returns
  // -------------------------------------------------------------------------------------

  /**
   * return := "return" [ "in" STRING ] return-target { return-modifier }
   * return-modifier := "as" STRING | "aggregate" NAME { "," NAME }
   *                  | "sort" "by" field-path [ "asc" | "desc" ] | "limit" INTEGER | "skip" INTEGER
   *   -- each modifier at most once, in any order; printed in the order above
   */
  /** `endsAt`: a word that may follow the clause (`annotate` after identify experts' return). */
  private parseReturn(endsAt?: string): ReturnClause {
    const start = this.next().start;
    let group: StringValue | undefined;
    if (this.atKeyword('in')) {
      this.next();
      if (this.peek().type !== 'string') this.unexpected("a group name in double quotes after 'return in'");
      group = this.parseString();
    }
    const target = this.parseReturnTarget();
    let alias: StringValue | undefined;
    let aggregate: Name[] | undefined;
    let sort: SortSpec | undefined;
    let limit: NumberValue | undefined;
    let skip: NumberValue | undefined;
    for (;;) {
      const token = this.peek();
      const word = token.type === 'name' ? token.value.toLowerCase() : '';
      if (word === 'as') {
        if (alias) this.duplicate(token, word);
        this.next();
        if (this.peek().type !== 'string') this.unexpected("a name in double quotes after 'as'");
        alias = this.parseString();
      } else if (word === 'aggregate') {
        if (aggregate) this.duplicate(token, word);
        this.next();
        aggregate = [this.parseName("an indicator name after 'aggregate'", RETURN_RESERVED)];
        while (this.atPunct(',')) {
          this.next();
          aggregate.push(this.parseName("an indicator name after ','", RETURN_RESERVED));
        }
      } else if (word === 'sort') {
        if (sort) this.duplicate(token, word);
        sort = this.parseSort();
      } else if (word === 'limit') {
        if (limit) this.duplicate(token, word);
        this.next();
        limit = this.parseInteger("a whole number after 'limit'");
      } else if (word === 'skip') {
        if (skip) this.duplicate(token, word);
        this.next();
        skip = this.parseInteger("a whole number after 'skip'");
      } else {
        break;
      }
    }
    const after = this.peek();
    if (after.type !== 'eof' && !this.isKeyword(after, 'return') && !(endsAt && this.isKeyword(after, endsAt))) {
      const options = [
        ...(alias ? [] : ["'as'"]),
        ...(aggregate ? [] : ["'aggregate'"]),
        ...(sort ? [] : ["'sort by'"]),
        ...(limit ? [] : ["'limit'"]),
        ...(skip ? [] : ["'skip'"]),
        ...(endsAt ? [`'${endsAt}'`] : ["'return'"]),
        'the end of the query',
      ];
      this.unexpected(oneOf(options));
    }
    return frozen({
      kind: 'ReturnClause',
      ...(group ? { group } : {}),
      target,
      ...(alias ? { alias } : {}),
      ...(aggregate ? { aggregate: frozenList(aggregate) } : {}),
      ...(sort ? { sort } : {}),
      ...(limit ? { limit } : {}),
      ...(skip ? { skip } : {}),
      span: makeSpan(start, this.lastEnd()),
    });
  }

  /** return-target := function-call | NAME [ "[" field-list "]" ] */
  private parseReturnTarget(): ReturnTarget {
    const token = this.peek();
    if (token.type === 'name' && this.atPunct('(', 1) && !RETURN_RESERVED.has(token.value.toLowerCase())) {
      const call = this.parseFunctionCall();
      return frozen({ kind: 'FunctionTarget', call, span: call.span });
    }
    const name = this.parseName("a source, facet or function name after 'return'", RETURN_RESERVED);
    if (!this.atPunct('[')) {
      return frozen({ kind: 'ResultTarget', name, span: name.span });
    }
    const fields = this.parseFieldList();
    return frozen({
      kind: 'ResultTarget',
      name,
      fields: frozenList(fields),
      span: makeSpan(name.span.start, this.lastEnd()),
    });
  }

  /**
   * field-list := "[" [ "-" ] field-spec { ( "+" | "-" ) field-spec } "]"
   * field-spec := "unnest" "(" field-path ")" | field-path      -- "-" marks an exclusion
   */
  private parseFieldList(): FieldSpec[] {
    this.expectPunct('[');
    const fields: FieldSpec[] = [];
    let exclude = false;
    if (this.atPunct('-')) {
      this.next();
      exclude = true;
    }
    for (;;) {
      fields.push(this.parseFieldSpec(exclude));
      if (this.atPunct('+') || this.atPunct('-')) {
        exclude = this.next().value === '-';
        continue;
      }
      this.expectPunct(']', "'+', '-' or ']'");
      return fields;
    }
  }

  /** field-spec := "unnest" "(" field-path ")" | field-path */
  private parseFieldSpec(exclude: boolean): FieldSpec {
    const token = this.peek();
    const sign = exclude ? (this.tokens[this.pos - 1] as Token) : undefined;
    const start = sign ? sign.start : token.start;
    if (this.isKeyword(token, 'unnest') && this.atPunct('(', 1)) {
      if (exclude) this.unexpected("a field or fieldset name after '-' (unnest() cannot be excluded)");
      this.next();
      this.next();
      const path = this.parseFieldPath('a field name inside unnest( )');
      const close = this.expectPunct(')');
      return frozen({ kind: 'Unnest', path, span: makeSpan(start, close.end) });
    }
    const path = this.parseFieldPath(exclude ? "a field or fieldset name after '-'" : 'a field or fieldset name');
    return frozen({ kind: 'FieldRef', path, exclude, span: makeSpan(start, path.span.end) });
  }

  /** sort := "sort" "by" field-path [ "asc" | "desc" ] */
  private parseSort(): SortSpec {
    const start = this.next().start;
    this.expectKeyword('by');
    const key = this.parseFieldPath("a field or indicator name after 'sort by'");
    const token = this.peek();
    const word = token.type === 'name' ? token.value.toLowerCase() : '';
    if (word === 'asc' || word === 'desc') {
      this.next();
      return frozen({ kind: 'Sort', key, direction: word, span: makeSpan(start, token.end) });
    }
    return frozen({ kind: 'Sort', key, span: makeSpan(start, key.span.end) });
  }

  // -------------------------------------------------------------------------------------
  // Function calls
  // -------------------------------------------------------------------------------------

  /**
   * function-call := NAME "(" [ argument { "," argument } ] ")"
   * argument := NAME "=" argument-value | argument-value      -- positional ones first
   */
  private parseFunctionCall(): FunctionCall {
    const name = this.parseName('a function name');
    const open = this.expectPunct('(');
    this.enter(open);
    const args: Argument[] = [];
    let named = false;
    if (!this.atPunct(')')) {
      for (;;) {
        const token = this.peek();
        if (token.type === 'name' && this.atPunct('=', 1)) {
          const argName = this.parseName('an argument name');
          this.next();
          const value = this.parseArgumentValue();
          args.push(
            frozen({ kind: 'NamedArgument', name: argName, value, span: makeSpan(token.start, value.span.end) }),
          );
          named = true;
        } else {
          const value = this.parseArgumentValue();
          if (named) {
            throw this.error('DSL_POSITIONAL_AFTER_NAMED', value.span, { function: `'${name.value}'` });
          }
          args.push(frozen({ kind: 'PositionalArgument', value, span: value.span }));
        }
        if (!this.atPunct(',')) break;
        this.next();
      }
    }
    const close = this.expectPunct(')', args.length === 0 ? "an argument or ')'" : "',' or ')'");
    this.leave();
    return frozen({ kind: 'FunctionCall', name, args: frozenList(args), span: makeSpan(name.span.start, close.end) });
  }

  /**
   * argument-value := STRING | number | "true" | "false" | "null" | list | object
   * list   := "[" [ argument-value { "," argument-value } ] "]"
   * object := "{" [ STRING ":" argument-value { "," STRING ":" argument-value } ] "}"
   *   -- JSON literals; strings inside a list or an object are JSON strings (\n, \uXXXX decoded)
   */
  private parseArgumentValue(json = false): ArgumentValue {
    const token = this.peek();
    const expected = 'an argument value (a string, a number, true, false or a [...] list)';
    if (token.type === 'name') {
      const word = token.value.toLowerCase();
      if (word === 'true' || word === 'false') {
        this.next();
        return frozen({ kind: 'Boolean', value: word === 'true', span: makeSpan(token.start, token.end) });
      }
      if (word === 'null') {
        this.next();
        return frozen({ kind: 'Null', span: makeSpan(token.start, token.end) });
      }
      return this.unexpected(expected);
    }
    if (token.type === 'punct' && token.value === '[') {
      this.next();
      this.enter(token);
      const items: ArgumentValue[] = [];
      if (!this.atPunct(']')) {
        items.push(this.parseArgumentValue(true));
        while (this.atPunct(',')) {
          this.next();
          items.push(this.parseArgumentValue(true));
        }
      }
      const close = this.expectPunct(']', items.length === 0 ? "a value or ']'" : "',' or ']'");
      this.leave();
      return frozen({ kind: 'List', items: frozenList(items), span: makeSpan(token.start, close.end) });
    }
    if (token.type === 'punct' && token.value === '{') return this.parseObject();
    if (json && token.type === 'string') return this.parseJsonString();
    return this.parseScalar(expected);
  }

  /** object := "{" [ STRING ":" argument-value { "," STRING ":" argument-value } ] "}" */
  private parseObject(): ObjectValue {
    const open = this.next();
    this.enter(open);
    const entries: ObjectEntry[] = [];
    const seen = new Set<string>();
    if (!this.atPunct('}')) {
      for (;;) {
        if (this.peek().type !== 'string') {
          this.unexpected(entries.length === 0 ? "a key in double quotes or '}'" : 'a key in double quotes');
        }
        const key = this.parseJsonString();
        if (seen.has(key.value)) throw this.error('DSL_DUPLICATE_KEY', key.span, { key: clip(key.value) });
        seen.add(key.value);
        this.expectPunct(':', `':' after the key "${clip(key.value)}"`);
        const value = this.parseArgumentValue(true);
        entries.push(frozen({ kind: 'ObjectEntry', key, value, span: makeSpan(key.span.start, value.span.end) }));
        if (!this.atPunct(',')) break;
        this.next();
      }
    }
    const close = this.expectPunct('}', "',' or '}'");
    this.leave();
    return frozen({ kind: 'Object', entries: frozenList(entries), span: makeSpan(open.start, close.end) });
  }

  /**
   * A string inside a JSON literal: decoded from the query text by JSON's rules (`\n`, `\t`,
   * `\/`, `\b`, `\f`, `\r`, `\uXXXX` as well as `\"` and `\\`); any other backslash pair is kept
   * as written. Triple-quoted strings stay verbatim.
   */
  private parseJsonString(): StringValue {
    const token = this.next();
    const triple = (token.flags & STRING_TRIPLE) !== 0;
    const value = triple ? token.value : decodeJsonString(this.text.slice(token.start + 1, token.end - 1));
    return frozen({ kind: 'String', value, triple, span: makeSpan(token.start, token.end) });
  }

  // -------------------------------------------------------------------------------------
  // Leaves
  // -------------------------------------------------------------------------------------

  /** NAME, not one of `reserved` (compared case-insensitively). */
  private parseName(expected: string, reserved?: ReadonlySet<string>): Name {
    const token = this.peek();
    if (token.type !== 'name' || (reserved !== undefined && reserved.has(token.value.toLowerCase()))) {
      this.unexpected(expected);
    }
    this.next();
    return frozen({ kind: 'Name', value: token.value, span: makeSpan(token.start, token.end) });
  }

  /** field-path := NAME { "." NAME } */
  private parseFieldPath(expected: string): FieldPath {
    const first = this.peek();
    if (first.type !== 'name') this.unexpected(expected);
    this.next();
    const segments = [first.value];
    let end = first.end;
    while (this.atPunct('.')) {
      this.next();
      const part = this.peek();
      if (part.type !== 'name') this.unexpected("a sub-field name after '.'");
      this.next();
      segments.push(part.value);
      end = part.end;
    }
    return frozen({
      kind: 'FieldPath',
      segments: frozenList(segments),
      path: segments.join('.'),
      span: makeSpan(first.start, end),
    });
  }

  /** value := STRING | number */
  private parseScalar(expected: string): ScalarValue {
    const token = this.peek();
    if (token.type === 'string') return this.parseString();
    if (token.type === 'number' || (token.type === 'punct' && token.value === '-' && this.peek(1).type === 'number')) {
      return this.parseNumber(expected);
    }
    return this.unexpected(expected);
  }

  /** STRING := '"' ... '"' | '"""' ... '"""' */
  private parseString(): StringValue {
    const token = this.next();
    return frozen({
      kind: 'String',
      value: token.value,
      triple: (token.flags & STRING_TRIPLE) !== 0,
      span: makeSpan(token.start, token.end),
    });
  }

  /** number := [ "-" ] NUMBER */
  private parseNumber(expected: string): NumberValue {
    const first = this.peek();
    const negative = first.type === 'punct' && first.value === '-';
    const token = negative ? this.peek(1) : first;
    if (token.type !== 'number') return this.unexpected(expected, first);
    if (negative) this.next();
    this.next();
    const raw = negative ? `-${token.value}` : token.value;
    let integer = true;
    for (let k = 0; k < token.value.length; k++) {
      const c = token.value.charCodeAt(k);
      if (c === 46 || c === 101 || c === 69) {
        integer = false;
        break;
      }
    }
    return frozen({ kind: 'Number', value: Number(raw), raw, integer, span: makeSpan(first.start, token.end) });
  }

  /** INTEGER := [ "-" ] digits */
  private parseInteger(expected: string): NumberValue {
    const first = this.peek();
    const value = this.parseNumber(expected);
    if (!value.integer) this.unexpected(expected, this.tokens[this.pos - 1] ?? first);
    return value;
  }
}

/**
 * similar_documents("text"): its salient words as `w1^n OR w2^n OR "w3 w4"^n ...`, every
 * node spanning the string. No words (only stop words) gives an empty phrase, which the
 * schema refuses (`search-function` rule) before anything runs.
 */
function similarTermsTree(text: StringValue): FullTextNode {
  const span = text.span;
  const nodes: FullTextNode[] = salientTerms(text.value).map((t) => {
    const boost = t.weight > 1 ? { boost: t.weight } : {};
    if (!t.text.includes(' ')) return frozen({ kind: 'TextTerm', text: t.text, wildcard: false, ...boost, span });
    return frozen({ kind: 'TextPhrase', text: t.text, words: frozenList(t.text.split(' ')), ...boost, span });
  });
  if (nodes.length === 0) return frozen({ kind: 'TextPhrase', text: '', words: frozenList([]), span });
  if (nodes.length === 1) return nodes[0] as FullTextNode;
  return frozen({ kind: 'TextOr', operands: frozenList(nodes), span });
}
