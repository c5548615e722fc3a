import {
  assertNever,
  type Argument,
  type ArgumentValue,
  type FieldPath,
  type FieldSpec,
  type FilterNode,
  type FunctionCall,
  type FullTextNode,
  type Query,
  type ReturnClause,
  type ReturnTarget,
  type ScalarValue,
  type StringValue,
} from './ast.ts';

/**
 * Prints a query tree as canonical text: lower-case keywords, single spaces, `for` before
 * `where`, return modifiers in grammar order. `parse(print(ast))` gives `ast` back, spans
 * aside.
 *
 * @example
 * print(parse('SEARCH grants  where start_year=2000 for "x" return grants[id+title] LIMIT 5'))
 * // 'search grants for "x" where start_year = 2000 return grants[id + title] limit 5'
 */
export function print(query: Query): string {
  switch (query.kind) {
    case 'SearchQuery': {
      let out = `search ${query.source.value}`;
      if (query.fullText) {
        if (query.fullText.index) out += ` in ${query.fullText.index.value}`;
        out += ` for ${query.fullText.call ? printCall(query.fullText.call) : printString(query.fullText.text)}`;
      }
      if (query.filter) out += ` where ${printFilter(query.filter)}`;
      for (const clause of query.returns) out += ` ${printReturn(clause)}`;
      return out;
    }
    case 'DescribeQuery':
      return query.name ? `describe ${query.target} ${query.name.value}` : `describe ${query.target}`;
    case 'FunctionCallQuery':
      return printCall(query.call);
    case 'IdentifyExpertsQuery': {
      let out = `identify experts from concepts ${printString(query.concepts)}`;
      if (query.using) out += ` using ${query.using.value}`;
      if (query.filter) out += ` where ${printFilter(query.filter)}`;
      out += ` ${printReturn(query.returns)}`;
      if (query.annotate) {
        const kinds = query.annotate.kinds.map((k) => k.value).join(', ');
        out += ` annotate ${kinds} overlap with [${query.annotate.ids.map(printString).join(', ')}]`;
      }
      return out;
    }
    default:
      return assertNever(query);
  }
}

/** A string literal that reads back as `value`. */
export function printString(value: StringValue): string {
  if (value.triple) return `"""${value.value}"""`;
  // A backslash is doubled only where the lexer would otherwise read it as an escape
  // (before `"` or `\\`, or at the end), so full-text escapes such as `\\(` print as written.
  const text = value.value;
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') {
      const next = text[i + 1];
      out += next === undefined || next === '"' || next === '\\' ? '\\\\' : '\\';
    } else out += ch;
  }
  return `${out}"`;
}

function printPath(path: FieldPath): string {
  return path.segments.join('.');
}

function printScalar(value: ScalarValue): string {
  return value.kind === 'String' ? printString(value) : value.raw;
}

/** A filter as text; parentheses only where the tree needs them. */
export function printFilter(node: FilterNode): string {
  switch (node.kind) {
    case 'Comparison':
      return `${printPath(node.field)} ${node.op} ${printScalar(node.value)}`;
    case 'InList':
      return `${printPath(node.field)} in [${node.values.map(printScalar).join(', ')}]`;
    case 'InRange':
      return `${printPath(node.field)} in [${printScalar(node.low)}:${printScalar(node.high)}]`;
    case 'IsEmpty':
      return `${printPath(node.field)} is empty`;
    case 'IsNotEmpty':
      return `${printPath(node.field)} is not empty`;
    case 'CountComparison':
      return `count(${printPath(node.field)}) ${node.op} ${node.value.raw}`;
    case 'And':
      // An `and` directly inside an `and` came from parentheses; keep them.
      return node.operands
        .map((o) => (o.kind === 'And' || o.kind === 'Or' ? `(${printFilter(o)})` : printFilter(o)))
        .join(' and ');
    case 'Or':
      return node.operands.map((o) => (o.kind === 'Or' ? `(${printFilter(o)})` : printFilter(o))).join(' or ');
    case 'Not':
      return node.operand.kind === 'And' || node.operand.kind === 'Or'
        ? `not (${printFilter(node.operand)})`
        : `not ${printFilter(node.operand)}`;
    default:
      return assertNever(node);
  }
}

function printReturn(clause: ReturnClause): string {
  let out = 'return';
  if (clause.group) out += ` in ${printString(clause.group)}`;
  out += ` ${printTarget(clause.target)}`;
  if (clause.alias) out += ` as ${printString(clause.alias)}`;
  if (clause.aggregate) out += ` aggregate ${clause.aggregate.map((n) => n.value).join(', ')}`;
  if (clause.sort)
    out += ` sort by ${printPath(clause.sort.key)}${clause.sort.direction ? ` ${clause.sort.direction}` : ''}`;
  if (clause.limit) out += ` limit ${clause.limit.raw}`;
  if (clause.skip) out += ` skip ${clause.skip.raw}`;
  return out;
}

function printTarget(target: ReturnTarget): string {
  switch (target.kind) {
    case 'ResultTarget':
      return target.fields ? `${target.name.value}[${printFields(target.fields)}]` : target.name.value;
    case 'FunctionTarget':
      return printCall(target.call);
    default:
      return assertNever(target);
  }
}

function printFields(fields: readonly FieldSpec[]): string {
  let out = '';
  fields.forEach((field, i) => {
    const exclude = field.kind === 'FieldRef' && field.exclude;
    if (i > 0) out += exclude ? ' - ' : ' + ';
    else if (exclude) out += '-';
    out += printFieldSpec(field);
  });
  return out;
}

function printFieldSpec(field: FieldSpec): string {
  switch (field.kind) {
    case 'FieldRef':
      return printPath(field.path);
    case 'Unnest':
      return `unnest(${printPath(field.path)})`;
    default:
      return assertNever(field);
  }
}

function printCall(call: FunctionCall): string {
  return `${call.name.value}(${call.args.map(printArgument).join(', ')})`;
}

function printArgument(arg: Argument): string {
  switch (arg.kind) {
    case 'PositionalArgument':
      return printArgumentValue(arg.value);
    case 'NamedArgument':
      return `${arg.name.value}=${printArgumentValue(arg.value)}`;
    default:
      return assertNever(arg);
  }
}

/** `json`: inside a list or an object, where strings are JSON strings (the parser decodes them so). */
function printArgumentValue(value: ArgumentValue, json = false): string {
  switch (value.kind) {
    case 'String':
      return json && !value.triple ? JSON.stringify(value.value) : printString(value);
    case 'Number':
      return value.raw;
    case 'Boolean':
      return value.value ? 'true' : 'false';
    case 'Null':
      return 'null';
    case 'List':
      return `[${value.items.map((item) => printArgumentValue(item, true)).join(', ')}]`;
    case 'Object':
      return `{${value.entries
        .map((entry) => `${printArgumentValue(entry.key, true)}: ${printArgumentValue(entry.value, true)}`)
        .join(', ')}}`;
    default:
      return assertNever(value);
  }
}

// ---------------------------------------------------------------------------------------
// Full text
// ---------------------------------------------------------------------------------------

/** Characters a term must escape to read back as the same term (spec/dsl.md §3, plus `\`). */
const TERM_SPECIAL = new Set(['^', '"', ':', '~', '\\', '[', ']', '{', '}', '(', ')', '!', '|', '&', '+']);

function printTerm(text: string, wildcard: boolean): string {
  if (text === 'AND' || text === 'OR' || text === 'NOT') return `\\${text}`;
  let out = '';
  let first = true;
  for (const ch of text) {
    if (TERM_SPECIAL.has(ch) || /\s/u.test(ch) || (!wildcard && (ch === '?' || ch === '*')) || (first && ch === '-'))
      out += '\\';
    out += ch;
    first = false;
  }
  return out;
}

/**
 * Prints a full-text tree in canonical search-string syntax (upper-case operators, explicit
 * `AND`). `parseFullText(printFullText(node))` gives the same tree, spans aside.
 *
 * @example printFullText(ast) // '(dose OR concentration) AND (-malaria AND +africa)'
 */
export function printFullText(node: FullTextNode): string {
  switch (node.kind) {
    case 'TextTerm':
      return printTerm(node.text, node.wildcard) + printBoost(node.boost);
    case 'TextPhrase': {
      let out = '"';
      for (const ch of node.text) out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
      out += node.proximity === undefined ? '"' : `"~${node.proximity}`;
      return out + printBoost(node.boost);
    }
    case 'TextAnd':
      return node.operands
        .map((o) => (o.kind === 'TextAnd' || o.kind === 'TextOr' ? `(${printFullText(o)})` : printFullText(o)))
        .join(' AND ');
    case 'TextOr':
      // AND binds tighter than OR, so only an OR inside an OR needs parentheses.
      return node.operands.map((o) => (o.kind === 'TextOr' ? `(${printFullText(o)})` : printFullText(o))).join(' OR ');
    case 'TextNot':
      return `NOT ${printUnaryOperand(node.operand)}`;
    case 'TextRequired':
      return `+${printUnaryOperand(node.operand)}`;
    case 'TextProhibited':
      return `-${printUnaryOperand(node.operand)}`;
    case 'TextGroup':
      return `(${printFullText(node.body)})`;
    default:
      return assertNever(node);
  }
}

function printBoost(boost: number | undefined): string {
  return boost === undefined ? '' : `^${boost}`;
}

function printUnaryOperand(node: FullTextNode): string {
  return node.kind === 'TextAnd' || node.kind === 'TextOr' ? `(${printFullText(node)})` : printFullText(node);
}
