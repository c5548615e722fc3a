/**
 * Checks `identify experts from concepts "..." [using publications|grants] [where ...]
 * return experts[...] [limit N [skip M]] [annotate ... with [...]]` and turns it into the
 * searches that answer it (validated.ts, `ValidatedIdentifyExperts`). The concepts string,
 * the filter and the expert fields are checked by validating the very searches that will
 * run, so every mistake is reported where it stands in the query, as for a search.
 */
import type {
  FieldRef,
  FieldSpec,
  FullTextClause,
  IdentifyExpertsQuery,
  Name,
  ReturnClause,
  SearchQuery,
  Span,
} from '../dsl/ast.ts';
import { print } from '../dsl/index.ts';
import { problem, type Problem } from '../errors/index.ts';
import type { ValidateOptions } from './context.ts';
import type { DslVersion } from './types.ts';
import type { ValidatedIdentifyExperts } from './validated.ts';

/** Experts answered when the query gives no `limit` (the hosted service's default). */
export const DEFAULT_EXPERTS_LIMIT = 20;

/** The fields experts carry beside a researcher's own. */
const EXPERT_FIELDS: ReadonlySet<string> = new Set(['docs_found', 'score']);

const ANNOTATIONS: ReadonlySet<string> = new Set(['coauthorship', 'organizational']);

/**
 * @param validateSearch validates a search (throws its positioned problems), `validate()`.
 * @returns the checked statement, or the problems found in it.
 */
export function validateIdentifyExperts(
  ast: IdentifyExpertsQuery,
  version: DslVersion,
  options: ValidateOptions,
  validateSearch: (search: SearchQuery) => void,
): ValidatedIdentifyExperts | { readonly problems: readonly Problem[] } {
  const problems: Problem[] = [];
  const bad = (text: string, span: Span): void => {
    problems.push(problem('SCHEMA_IDENTIFY_EXPERTS', { span, source: options.source, params: { problem: text } }));
  };
  const usingName = ast.using?.value.toLowerCase() ?? 'publications';
  if (usingName !== 'publications' && usingName !== 'grants') {
    bad(`experts are found from publications or grants, not ${ast.using?.value ?? ''}`, ast.using?.span ?? ast.span);
  }
  const target = ast.returns.target;
  const clause = ast.returns;
  if (target.kind !== 'ResultTarget' || target.name.value !== 'experts') {
    bad("it returns experts: 'return experts' or 'return experts[basics]'", target.span);
  }
  if (clause.group) bad("'return in' is not offered for experts", clause.group.span);
  if (clause.alias) bad("'as' is not offered for experts", clause.alias.span);
  if (clause.aggregate?.[0]) bad("'aggregate' is not offered for experts", clause.aggregate[0].span);
  if (clause.sort) bad('experts are ordered by score; sort by is not offered', clause.sort.span);
  const kinds = new Set<string>();
  for (const kind of ast.annotate?.kinds ?? []) {
    const word = kind.value.toLowerCase();
    if (!ANNOTATIONS.has(word))
      bad(`annotate takes coauthorship and/or organizational, not '${kind.value}'`, kind.span);
    kinds.add(word);
  }
  for (const id of ast.annotate?.ids ?? []) {
    if (!/^[a-z]+\.[\w.-]+$/i.test(id.value)) {
      bad(`'${id.value}' is not a researcher (ur.…) or organization (grid.…) id`, id.span);
    }
  }
  if (ast.annotate && ast.annotate.ids.length === 0) bad('annotate needs at least one id', ast.annotate.span);
  if (problems.length > 0) return { problems };
  const using = usingName as 'publications' | 'grants';

  // The matching documents: a search over the concepts index with the filter.
  const at = (span: Span): Span => span;
  const name = (value: string, span: Span): Name => ({ kind: 'Name', value, span: at(span) });
  const fullText: FullTextClause = {
    kind: 'FullTextClause',
    index: name('concepts', ast.concepts.span),
    text: ast.concepts,
    ast: ast.conceptsAst,
    span: ast.concepts.span,
  };
  const idOnly = (source: string, span: Span): ReturnClause => ({
    kind: 'ReturnClause',
    target: {
      kind: 'ResultTarget',
      name: name(source, span),
      fields: [
        { kind: 'FieldRef', path: { kind: 'FieldPath', segments: ['id'], path: 'id', span }, exclude: false, span },
      ],
      span,
    },
    span,
  });
  const documents: SearchQuery = {
    kind: 'SearchQuery',
    source: name(using, ast.using?.span ?? ast.span),
    fullText,
    ...(ast.filter ? { filter: ast.filter } : {}),
    returns: [idOnly(using, ast.returns.span)],
    span: ast.span,
  };
  validateSearch(documents);
  const documentsText = print(documents).replace(/ return [a-z_]+\[id\]$/, '');

  // The expert fields: the researchers' own, checked as a researchers search would.
  const fields = target.kind === 'ResultTarget' ? (target.fields ?? []) : [];
  const own = fields.filter((f) => !isExpertField(f));
  const named = (f: string): boolean => fields.some((s) => s.kind === 'FieldRef' && !s.exclude && s.path.path === f);
  const dropped = (f: string): boolean => fields.some((s) => s.kind === 'FieldRef' && s.exclude && s.path.path === f);
  const onlyExpertFields = fields.length > 0 && own.length === 0;
  const researcherFields: readonly FieldSpec[] = own.length > 0 ? own : [];
  const researchers: SearchQuery = {
    kind: 'SearchQuery',
    source: name('researchers', target.span),
    returns: [
      {
        kind: 'ReturnClause',
        target: {
          kind: 'ResultTarget',
          name: name('researchers', target.span),
          ...(researcherFields.length > 0 ? { fields: researcherFields } : {}),
          span: target.span,
        },
        ...(clause.limit ? { limit: clause.limit } : {}),
        ...(clause.skip ? { skip: clause.skip } : {}),
        span: clause.span,
      },
    ],
    span: ast.span,
  };
  validateSearch(researchers);
  const printed = print(researchers);
  const open = printed.indexOf('researchers[');
  const fieldList =
    open < 0 || researcherFields.length === 0
      ? onlyExpertFields
        ? 'id'
        : 'basics'
      : printed.slice(open + 'researchers['.length, printed.lastIndexOf(']'));
  const limit = clause.limit?.value ?? DEFAULT_EXPERTS_LIMIT;
  return Object.freeze({
    kind: 'identify_experts',
    dslVersion: version,
    using,
    documents: documentsText,
    fields: fieldList,
    docsFound: !dropped('docs_found') && (!onlyExpertFields || named('docs_found')),
    score: !dropped('score') && (!onlyExpertFields || named('score')),
    limit,
    skip: clause.skip?.value ?? 0,
    ...(ast.annotate
      ? {
          annotate: Object.freeze({
            coauthorship: kinds.has('coauthorship'),
            organizational: kinds.has('organizational'),
            ids: Object.freeze(ast.annotate.ids.map((id) => id.value)),
          }),
        }
      : {}),
  });
}

function isExpertField(spec: FieldSpec): spec is FieldRef {
  return spec.kind === 'FieldRef' && EXPERT_FIELDS.has(spec.path.path);
}
