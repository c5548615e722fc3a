/**
 * The syntax tree of a Quarry query (spec/dsl.md §1–§6, §8), as the parser produces it.
 *
 * Every node is a frozen plain object with a `kind` and a `span` (UTF-16 offsets into the
 * whole query text, half-open). Plain data crosses worker threads unchanged, and every
 * dispatch over `kind` is exhaustive: end a switch with `assertNever(node)` so that a new
 * kind breaks the build until every visitor handles it.
 *
 * The parser knows nothing of the schema: `return funders` and `return publications` give
 * the same node (`ResultTarget`), and a field list does not say which names are fields and
 * which are fieldsets. `schema/` decides.
 *
 * Compatibility: other areas code against these types. Add kinds and optional properties;
 * never rename or remove.
 */
import type { Span } from '../errors/index.ts';

export type { Span } from '../errors/index.ts';

// ---------------------------------------------------------------------------------------
// Shared leaves
// ---------------------------------------------------------------------------------------

/** An identifier as written (`publications`, `category_for_2020`), keywords excluded. */
export interface Name {
  readonly kind: 'Name';
  readonly value: string;
  readonly span: Span;
}

/**
 * A dotted field path (`research_orgs.id`, `journal.title`, `year`).
 * `path` is the segments joined with `.`, for lookups.
 */
export interface FieldPath {
  readonly kind: 'FieldPath';
  readonly segments: readonly string[];
  readonly path: string;
  readonly span: Span;
}

/**
 * A string literal. `value` is decoded (`\"` → `"`, `\\` → `\`; any other backslash pair is
 * kept as written so the full-text parser sees its own escapes). Triple-quoted strings
 * (`"""..."""`) are taken verbatim. `span` covers the quotes.
 */
export interface StringValue {
  readonly kind: 'String';
  readonly value: string;
  readonly triple: boolean;
  readonly span: Span;
}

/**
 * A number literal. `raw` is the text as written (`-3`, `2.5`); `integer` is true when it
 * has no fraction or exponent. Values outside the safe-integer range keep `raw` exact.
 */
export interface NumberValue {
  readonly kind: 'Number';
  readonly value: number;
  readonly raw: string;
  readonly integer: boolean;
  readonly span: Span;
}

/** `true` / `false`, only in function arguments (`extract_concepts("...", return_scores=true)`). */
export interface BooleanValue {
  readonly kind: 'Boolean';
  readonly value: boolean;
  readonly span: Span;
}

/** `[a, b, ...]` as a function argument. (Filter lists are `InList`.) */
export interface ListValue {
  readonly kind: 'List';
  readonly items: readonly ArgumentValue[];
  readonly span: Span;
}

/** `null`, only in function arguments (JSON literals: `{"state": null}`). */
export interface NullValue {
  readonly kind: 'Null';
  readonly span: Span;
}

/**
 * A JSON object as a function argument (`{"affiliation": "Univ of X", "country": "Ireland"}`);
 * objects and lists nest. Keys are strings in double quotes, each at most once. Strings inside
 * an object or a list are JSON strings: `\n`, `\t`, `\uXXXX` and the other JSON escapes are
 * decoded (clients send `json.dumps` output).
 */
export interface ObjectValue {
  readonly kind: 'Object';
  readonly entries: readonly ObjectEntry[];
  readonly span: Span;
}

/** `"key": value` inside an object. */
export interface ObjectEntry {
  readonly kind: 'ObjectEntry';
  readonly key: StringValue;
  readonly value: ArgumentValue;
  readonly span: Span;
}

/** What a filter compares against. Dates are strings (`"2020-01-22"`), flags are numbers. */
export type ScalarValue = StringValue | NumberValue;

/** What a function argument may be. */
export type ArgumentValue = StringValue | NumberValue | BooleanValue | NullValue | ListValue | ObjectValue;

// ---------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------

export type Query = SearchQuery | DescribeQuery | FunctionCallQuery | IdentifyExpertsQuery;

/**
 * `search SOURCE [in INDEX for STRING | for STRING] [where filter] return+`
 * (`for` and `where` in either order; the tree does not record which came first).
 */
export interface SearchQuery {
  readonly kind: 'SearchQuery';
  readonly source: Name;
  readonly fullText?: FullTextClause;
  readonly filter?: FilterNode;
  /** At least one. */
  readonly returns: readonly ReturnClause[];
  readonly span: Span;
}

/** `describe version | schema | source NAME | entity NAME`. `name` is set for source and entity. */
export interface DescribeQuery {
  readonly kind: 'DescribeQuery';
  readonly target: 'version' | 'schema' | 'source' | 'entity';
  readonly name?: Name;
  readonly span: Span;
}

/**
 * `identify experts from concepts STRING [using SOURCE] [where filter] return experts[...]
 * [limit N [skip M]] [annotate KIND {, KIND} [overlap] with [ID, ...]]`: researchers ranked by
 * how well their documents match the concepts (a search string over the `concepts` index).
 */
export interface IdentifyExpertsQuery {
  readonly kind: 'IdentifyExpertsQuery';
  /** The concepts as written; `concepts.value` is the search string. */
  readonly concepts: StringValue;
  /** The search string parsed in the full-text sub-language (spans into the whole query). */
  readonly conceptsAst: FullTextNode;
  /** `using publications | grants`; absent means publications. */
  readonly using?: Name;
  readonly filter?: FilterNode;
  /** `return experts[...] [limit N] [skip M]`; the schema refuses other targets and modifiers. */
  readonly returns: ReturnClause;
  readonly annotate?: ExpertsAnnotation;
  readonly span: Span;
}

/** `annotate coauthorship, organizational overlap with ["ur.1", "grid.2"]`. */
export interface ExpertsAnnotation {
  /** `coauthorship` and/or `organizational`, as written. */
  readonly kinds: readonly Name[];
  readonly ids: readonly StringValue[];
  readonly span: Span;
}

/** A top-level function call (`extract_concepts("...")`, §8). The schema decides whether it is offered. */
export interface FunctionCallQuery {
  readonly kind: 'FunctionCallQuery';
  readonly call: FunctionCall;
  readonly span: Span;
}

// ---------------------------------------------------------------------------------------
// Full text: `[in INDEX] for STRING`
// ---------------------------------------------------------------------------------------

export interface FullTextClause {
  readonly kind: 'FullTextClause';
  /** `in INDEX`; absent means the default index (`full_data`), chosen by the schema. */
  readonly index?: Name;
  /**
   * The string literal as written; `text.value` is what the full-text parser read. With a
   * search function (`for min_should_match("a OR b", 1)`), its first argument.
   */
  readonly text: StringValue;
  /** The parsed full-text expression; its spans point into the whole query. */
  readonly ast: FullTextNode;
  /**
   * `for NAME(STRING, ...)`: a search function around the search string
   * (`min_should_match`, `complex`); the schema checks its other arguments.
   */
  readonly call?: FunctionCall;
  readonly span: Span;
}

/**
 * The full-text sub-language (spec/dsl.md §3). Precedence, loosest first:
 * `OR`/`||`, then `AND`/`&&`/adjacency (adjacent clauses are all required), then prefix
 * `NOT`/`!`, `+`, `-`. `a NOT b` is `a AND (NOT b)`.
 */
export type FullTextNode =
  TextTerm | TextPhrase | TextAnd | TextOr | TextNot | TextGroup | TextRequired | TextProhibited;

/**
 * One word, escapes removed (`\(` → `(`). When `wildcard` is true, every `?` in `text` is
 * "one character" and every `*` "any run" — those two characters cannot be escaped, so
 * there is no ambiguity. A term made only of wildcards is rejected by the parser.
 */
export interface TextTerm {
  readonly kind: 'TextTerm';
  readonly text: string;
  readonly wildcard: boolean;
  /** `term^N`: weight N in relevance order (never changes which records match). */
  readonly boost?: number;
  readonly span: Span;
}

/**
 * `"words in order"` with optional `~N` proximity (at most N positions apart). `text` is
 * the unescaped phrase; `words` splits it on whitespace (wildcards are literal in phrases).
 */
export interface TextPhrase {
  readonly kind: 'TextPhrase';
  readonly text: string;
  readonly words: readonly string[];
  readonly proximity?: number;
  /** `"phrase"^N` (after any `~N`): weight N in relevance order only. */
  readonly boost?: number;
  readonly span: Span;
}

/** Explicit (`AND`, `&&`) or implicit (adjacency) conjunction; two or more operands. */
export interface TextAnd {
  readonly kind: 'TextAnd';
  readonly operands: readonly FullTextNode[];
  readonly span: Span;
}

/** `OR` / `||`; two or more operands. */
export interface TextOr {
  readonly kind: 'TextOr';
  readonly operands: readonly FullTextNode[];
  readonly span: Span;
}

/** `NOT x` / `!x`. Inside a conjunction it means "and not". */
export interface TextNot {
  readonly kind: 'TextNot';
  readonly operand: FullTextNode;
  readonly span: Span;
}

/** `( ... )`, kept so printing and the "no proximity after a group" rule see it. */
export interface TextGroup {
  readonly kind: 'TextGroup';
  readonly body: FullTextNode;
  readonly span: Span;
}

/** `+x`: x must match (the same as plain `x` under the all-terms-required default). */
export interface TextRequired {
  readonly kind: 'TextRequired';
  readonly operand: FullTextNode;
  readonly span: Span;
}

/** `-x`: x must not match. */
export interface TextProhibited {
  readonly kind: 'TextProhibited';
  readonly operand: FullTextNode;
  readonly span: Span;
}

// ---------------------------------------------------------------------------------------
// Filters: `where ...`
// ---------------------------------------------------------------------------------------

export type ComparisonOperator = '=' | '!=' | '>' | '<' | '>=' | '<=' | '~';

/** `not` binds tightest, then `and`, then `or`. */
export type FilterNode =
  Comparison | InList | InRange | IsEmpty | IsNotEmpty | CountComparison | FilterAnd | FilterOr | FilterNot;

/** `field op value`, e.g. `year >= 2019`, `research_orgs.name ~ "Saarland Uni"`. */
export interface Comparison {
  readonly kind: 'Comparison';
  readonly field: FieldPath;
  readonly op: ComparisonOperator;
  readonly value: ScalarValue;
  readonly span: Span;
}

/** `field in [a, b, ...]` (at most 400 items, checked by the parser). */
export interface InList {
  readonly kind: 'InList';
  readonly field: FieldPath;
  readonly values: readonly ScalarValue[];
  readonly span: Span;
}

/** `field in [low:high]`, inclusive. */
export interface InRange {
  readonly kind: 'InRange';
  readonly field: FieldPath;
  readonly low: ScalarValue;
  readonly high: ScalarValue;
  readonly span: Span;
}

/** `field is empty`. */
export interface IsEmpty {
  readonly kind: 'IsEmpty';
  readonly field: FieldPath;
  readonly span: Span;
}

/** `field is not empty`. */
export interface IsNotEmpty {
  readonly kind: 'IsNotEmpty';
  readonly field: FieldPath;
  readonly span: Span;
}

/** `count(field) op N`, e.g. `count(research_orgs) > 5`. */
export interface CountComparison {
  readonly kind: 'CountComparison';
  readonly field: FieldPath;
  readonly op: ComparisonOperator;
  readonly value: NumberValue;
  readonly span: Span;
}

/** `a and b and ...`; two or more operands. A parenthesised `and` inside stays its own node. */
export interface FilterAnd {
  readonly kind: 'And';
  readonly operands: readonly FilterNode[];
  readonly span: Span;
}

/** `a or b or ...`; two or more operands. */
export interface FilterOr {
  readonly kind: 'Or';
  readonly operands: readonly FilterNode[];
  readonly span: Span;
}

/** `not x`. */
export interface FilterNot {
  readonly kind: 'Not';
  readonly operand: FilterNode;
  readonly span: Span;
}

// ---------------------------------------------------------------------------------------
// Returns
// ---------------------------------------------------------------------------------------

/**
 * `return [in "group"] result [as "alias"] [aggregate a, b] [sort by key [asc|desc]]
 * [limit N [skip M]]`. Range checks (limit ≤ 1000, no skip on facets, ...) are the schema's.
 */
export interface ReturnClause {
  readonly kind: 'ReturnClause';
  readonly group?: StringValue;
  readonly target: ReturnTarget;
  readonly alias?: StringValue;
  readonly aggregate?: readonly Name[];
  readonly sort?: SortSpec;
  readonly limit?: NumberValue;
  readonly skip?: NumberValue;
  readonly span: Span;
}

export type ReturnTarget = ResultTarget | FunctionTarget;

/**
 * A bare name with an optional field list: the searched source (`publications[id + title]`)
 * or a facet (`funders`). `fields` is undefined when no `[...]` was written.
 */
export interface ResultTarget {
  readonly kind: 'ResultTarget';
  readonly name: Name;
  readonly fields?: readonly FieldSpec[];
  readonly span: Span;
}

/** `return citations_per_year(2010, 2020)`. */
export interface FunctionTarget {
  readonly kind: 'FunctionTarget';
  readonly call: FunctionCall;
  readonly span: Span;
}

export type FieldSpec = FieldRef | Unnest;

/**
 * A field or a fieldset (`id`, `basics`), or a dotted sub-field; `exclude` is true for
 * `- name` (`[basics - doi]`).
 */
export interface FieldRef {
  readonly kind: 'FieldRef';
  readonly path: FieldPath;
  readonly exclude: boolean;
  readonly span: Span;
}

/** `unnest(field)` inside a field list. */
export interface Unnest {
  readonly kind: 'Unnest';
  readonly path: FieldPath;
  readonly span: Span;
}

/** `sort by KEY [asc|desc]`; `direction` is absent when not written (the default is the schema's). */
export interface SortSpec {
  readonly kind: 'Sort';
  readonly key: FieldPath;
  readonly direction?: 'asc' | 'desc';
  readonly span: Span;
}

// ---------------------------------------------------------------------------------------
// Function calls
// ---------------------------------------------------------------------------------------

/** `name(arg, ..., key=value, ...)`; positional arguments come first. */
export interface FunctionCall {
  readonly kind: 'FunctionCall';
  readonly name: Name;
  readonly args: readonly Argument[];
  readonly span: Span;
}

export type Argument = PositionalArgument | NamedArgument;

export interface PositionalArgument {
  readonly kind: 'PositionalArgument';
  readonly value: ArgumentValue;
  readonly span: Span;
}

export interface NamedArgument {
  readonly kind: 'NamedArgument';
  readonly name: Name;
  readonly value: ArgumentValue;
  readonly span: Span;
}

// ---------------------------------------------------------------------------------------

/** Every node kind, for generic walkers. */
export type Node =
  | Query
  | Name
  | FieldPath
  | StringValue
  | NumberValue
  | BooleanValue
  | NullValue
  | ListValue
  | ObjectValue
  | ObjectEntry
  | FullTextClause
  | FullTextNode
  | FilterNode
  | ReturnClause
  | ReturnTarget
  | FieldSpec
  | SortSpec
  | FunctionCall
  | Argument;

export type NodeKind = Node['kind'];

/**
 * Ends an exhaustive switch: the call type-checks only when every kind was handled.
 *
 * @example
 * switch (node.kind) { case 'And': ...; case 'Or': ...; default: return assertNever(node); }
 */
export function assertNever(value: never, what = 'node'): never {
  const kind =
    typeof value === 'object' && value !== null && 'kind' in value
      ? String((value as { kind: unknown }).kind)
      : String(value);
  throw new Error(`Unhandled ${what}: ${kind}`);
}
