/**
 * The validation driver: runs every rule over a parsed query, collects all problems (up to
 * a cap), and either throws one QuarryError holding them or returns the validated query
 * with its `_warnings`.
 */
import { assertNever, type DescribeQuery, type FunctionCallQuery, type Query, type Span } from '../dsl/ast.ts';
import { definitionOf, problem, QuarryError, type Problem } from '../errors/index.ts';
import { isSourceName, schemaFor } from './build.ts';
import { ValidationContext, type ValidateOptions } from './context.ts';
import { withDeprecatedKeyWarnings } from './deprecated-keys.ts';
import { entitledTo } from './entitlements.ts';
import { validateIdentifyExperts } from './identify-experts.ts';
import { lowerSearch } from './lower.ts';
import { FUNCTIONS, UNSUPPORTED_FUNCTIONS } from './offered.ts';
import { collectReferences } from './references.ts';
import { checkSearchedSource, SEARCH_RULES } from './rules/index.ts';
import { didYouMean } from './suggest.ts';
import type { EntityName, Schema, SourceName } from './types.ts';
import type { StatementCheck } from './statements.ts';
import type { ValidatedDescribe, ValidatedQuery, ValidatedStatement } from './validated.ts';

export type { ValidateOptions, SchemaPermissions } from './context.ts';

export const DEFAULT_MAX_PROBLEMS = 20;

export interface ValidationResult {
  readonly query: ValidatedQuery;
  /** `_warnings` entries (deprecated version-1 fields used, ...). */
  readonly warnings: readonly string[];
}

/**
 * Validates a parsed query against the schema of `options.dslVersion`.
 * Throws a QuarryError with every problem found (unsupported ones first, then in text
 * order, at most `maxProblems`); otherwise returns the validated query.
 *
 * @example
 * validate(parse(text), { dslVersion: 2, source: text })
 * // { query: { kind: 'search', source: <publications>, returns: [...] }, warnings: [] }
 */
export function validate(ast: Query, options: ValidateOptions): ValidationResult {
  const schema = schemaFor(options.dslVersion);
  switch (ast.kind) {
    case 'DescribeQuery':
      return { query: validateDescribe(schema, ast, options), warnings: [] };
    case 'FunctionCallQuery': {
      const statement = options.statements?.get(ast.call.name.value);
      if (statement !== undefined) return { query: validateStatement(schema, ast, statement, options), warnings: [] };
      throw queryError([functionQueryProblem(ast, options)]);
    }
    case 'IdentifyExpertsQuery': {
      const checked = validateIdentifyExperts(ast, schema.version, options, (search) => validate(search, options));
      if ('problems' in checked)
        throw queryError(ordered(checked.problems, options.maxProblems ?? DEFAULT_MAX_PROBLEMS));
      const statement = {
        kind: 'statement' as const,
        dslVersion: schema.version,
        name: 'identify_experts',
        reads: Object.freeze([
          ...new Set<SourceName>([
            checked.using,
            'researchers',
            ...(checked.annotate?.coauthorship === true ? (['publications'] as const) : []),
          ]),
        ]),
        args: checked,
        span: ast.span,
      };
      return { query: Object.freeze(statement), warnings: [] };
    }
    case 'SearchQuery': {
      const checked = checkSearchedSource(schema, ast.source, options);
      if ('problem' in checked) throw queryError([checked.problem]);
      const ctx = new ValidationContext(schema, ast, checked.source, collectReferences(ast, checked.source), options);
      for (const rule of SEARCH_RULES) rule.check(ctx);
      if (ctx.problems.length > 0) throw queryError(ordered(ctx.problems, options.maxProblems ?? DEFAULT_MAX_PROBLEMS));
      const query = withDeprecatedKeyWarnings(lowerSearch(schema, checked.source, ast, ctx.warnings));
      return { query, warnings: query.warnings };
    }
    default:
      return assertNever(ast);
  }
}

/**
 * The error for problems in the query text. Its stack trace would only point into the
 * validator, never at anything to fix, and capturing it costs more than validating a query
 * (the service answers many rejected queries), so none is captured.
 */
function queryError(problems: readonly Problem[]): QuarryError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new QuarryError(problems);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Unsupported problems first (the query cannot run here at all), then by position; capped. */
function ordered(problems: readonly Problem[], max: number): Problem[] {
  const rank = (p: Problem): number => (definitionOf(p.code).category === 'unsupported' ? 0 : 1);
  const sorted = problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => rank(a.p) - rank(b.p) || (a.p.span?.start ?? 0) - (b.p.span?.start ?? 0) || a.i - b.i)
    .map(({ p }) => p);
  if (sorted.length <= max) return sorted;
  return [
    ...sorted.slice(0, Math.max(1, max - 1)),
    problem('SCHEMA_TOO_MANY_PROBLEMS', { params: { max: Math.max(1, max - 1) } }),
  ];
}

function validateDescribe(schema: Schema, ast: DescribeQuery, options: ValidateOptions): ValidatedDescribe {
  const base = { kind: 'describe' as const, dslVersion: schema.version, target: ast.target };
  if (ast.target === 'schema' && options.permissions?.sources !== undefined) {
    // Only the sources the caller may search are described, with the functions returned from them.
    const sources = [...schema.sources.keys()].filter((name) => entitledTo(options.permissions, name));
    return Object.freeze({ ...base, sources: Object.freeze(sources) });
  }
  if (ast.target === 'version' || ast.target === 'schema' || ast.name === undefined) return Object.freeze(base);
  const name = ast.name;
  const at = { span: name.span, source: options.source };
  if (ast.target === 'source') {
    if (isSourceName(name.value) && !entitledTo(options.permissions, name.value))
      throw queryError([problem('SCHEMA_SOURCE_NOT_SUBSCRIBED', { ...at, params: { name: name.value } })]);
    if (isSourceName(name.value)) return Object.freeze({ ...base, name: name.value });
    throw queryError([
      problem('SCHEMA_UNKNOWN_SOURCE', {
        ...at,
        params: { name: name.value, hint: didYouMean(name.value, [...schema.sources.keys()]) },
      }),
    ]);
  }
  if (schema.entities.has(name.value as EntityName)) return Object.freeze({ ...base, name: name.value });
  throw queryError([
    problem('SCHEMA_UNKNOWN_ENTITY', {
      ...at,
      params: { name: name.value, hint: didYouMean(name.value, schema.entities.keys()) },
    }),
  ]);
}

function functionQueryProblem(ast: FunctionCallQuery, options: ValidateOptions): Problem {
  const name = ast.call.name;
  const at = { span: name.span, source: options.source };
  const fn = FUNCTIONS.get(name.value);
  if (fn !== undefined)
    return problem('SCHEMA_FUNCTION_NEEDS_SEARCH', {
      ...at,
      params: { name: name.value, sources: fn.sources.join('|') },
    });
  if (UNSUPPORTED_FUNCTIONS.has(name.value))
    return problem('SCHEMA_UNSUPPORTED_FUNCTION', { ...at, params: { name: name.value } });
  return problem('SCHEMA_UNKNOWN_FUNCTION', {
    ...at,
    params: {
      name: name.value,
      hint: didYouMean(name.value, [
        ...FUNCTIONS.keys(),
        ...UNSUPPORTED_FUNCTIONS,
        ...(options.statements?.keys() ?? []),
      ]),
    },
  });
}

/**
 * A top-level call of a statement function: the caller must be subscribed to every source it
 * reads; named arguments must be its parameters, each given once (did-you-mean otherwise);
 * then the function's own check reads the arguments, reporting a mistake as a positioned
 * `SCHEMA_STATEMENT_ARGUMENTS`.
 *
 * @example validate(parse('extract_grants(grant_number="R01CA1")'), { dslVersion: 2, source, statements })
 * // { query: { kind: 'statement', name: 'extract_grants', reads: ['grants', ...], args: {...} } }
 */
function validateStatement(
  schema: Schema,
  ast: FunctionCallQuery,
  statement: StatementCheck,
  options: ValidateOptions,
): ValidatedStatement {
  const call = ast.call;
  const name = call.name.value;
  checkReads(statement, call.name.span, options);
  const fail = (message: string, span: Span): never => {
    throw queryError([
      problem('SCHEMA_STATEMENT_ARGUMENTS', { span, source: options.source, params: { name, problem: message } }),
    ]);
  };
  const known = statement.parameters.map((p) => p.name);
  const seen = new Set<string>();
  for (const arg of call.args) {
    if (arg.kind !== 'NamedArgument') continue;
    const given = arg.name.value;
    if (!known.includes(given)) {
      const hint = didYouMean(given, known);
      const why = hint === '' ? `it takes ${known.join(', ')}` : hint.trim().replace(/^Did/, 'did');
      fail(`unknown argument '${given}' (${why})`, arg.name.span);
    }
    if (seen.has(given)) fail(`'${given}' is given twice`, arg.span);
    seen.add(given);
  }
  return statementOf(schema, name, statement, statement.check(call, fail), ast.span);
}

/** Refuses a statement whose sources the caller is not subscribed to, at `at`. */
function checkReads(statement: StatementCheck, at: Span, options: ValidateOptions): void {
  for (const source of statement.reads) {
    if (!entitledTo(options.permissions, source))
      throw queryError([
        problem('SCHEMA_SOURCE_NOT_SUBSCRIBED', { span: at, source: options.source, params: { name: source } }),
      ]);
  }
}

/** `name` is the statement's key in the registry. */
function statementOf(
  schema: Schema,
  name: string,
  statement: StatementCheck,
  args: unknown,
  span: Span,
): ValidatedStatement {
  return Object.freeze({
    kind: 'statement',
    dslVersion: schema.version,
    name,
    reads: Object.freeze([...statement.reads]),
    args,
    span,
  });
}

/**
 * The validated form of a statement with a syntax of its own (`identify experts ...`) that a
 * statement function of the registry answers: `name` is its registry key, `args` what its
 * `run` takes (worked out by the statement's own validation). Refuses it as not offered when
 * the registry lacks `name`, and when the caller may not read every source it reads (both at
 * `at`, the words that name the statement).
 *
 * @example validatedStatement('identify_experts', { concepts: ['x'] }, ast.span, keywordSpan, options)
 */
export function validatedStatement(
  name: string,
  args: unknown,
  span: Span,
  at: Span,
  options: ValidateOptions,
): ValidatedStatement {
  const statement = options.statements?.get(name);
  if (statement === undefined)
    throw queryError([problem('SCHEMA_UNSUPPORTED_FUNCTION', { span: at, source: options.source, params: { name } })]);
  checkReads(statement, at, options);
  return statementOf(schemaFor(options.dslVersion), name, statement, args, span);
}
