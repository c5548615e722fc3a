/**
 * Lowers a search query (its syntax tree, already accepted by `schema/`) to the
 * dialect-neutral SearchPlan: field paths become typed PlanFields, fieldsets become field
 * lists, defaults (limit 20, skip 0, `basics`, relevance order with full text) are filled.
 */
import {
  assertNever,
  type ComparisonOperator,
  type FieldPath,
  type FieldSpec,
  type FilterNode,
  type ReturnClause,
  type ScalarValue,
  type SearchQuery,
} from '../dsl/ast.ts';
import { QuarryError } from '../errors/index.ts';
import type { CatalogField, SourceCatalog } from './catalog.ts';
import { lowerFullText } from './lower-fulltext.ts';
import type { CompareOp, FacetOutput, FilterPlan, Indicator, OrderPlan, OutputPlan, PlanField, PlanFieldType, PlanValue, RecordsOutput, SearchPlan } from './plan.ts';

export const DEFAULT_LIMIT = 20;
export const DEFAULT_INDEX = 'full_data';
/** Indexes of person names: phrases match names in either order (spec/dsl.md §3). */
export const PERSON_NAME_INDEXES: ReadonlySet<string> = new Set(['authors', 'investigators', 'inventors']);

const INDICATORS: ReadonlySet<string> = new Set<Indicator>([
  'count',
  'citations_total',
  'citations_avg',
  'citations_median',
  'recent_citations_total',
  'altmetric_avg',
  'altmetric_median',
  'rcr_avg',
  'fcr_gavg',
  'funding',
]);

export interface LowerOptions {
  readonly catalog: SourceCatalog;
  /** Warnings of validation, passed to `_warnings`. */
  readonly warnings?: readonly string[];
  /** The query text, for error positions. */
  readonly source?: string;
}

/**
 * @example lowerSearch(parse('search publications where year = 2020 return year'), { catalog })
 *   // { kind: 'search', source: 'publications', filter: { kind: 'compare', field: { name: 'year', ... }, op: '=', value: 2020 },
 *   //   outputs: [{ kind: 'facet', key: 'year', field: 'year', valueType: 'integer', limit: 20, sortBy: 'count', ... }] }
 */
export function lowerSearch(query: SearchQuery, options: LowerOptions): SearchPlan {
  const source = query.source.value;
  const ctx = { source, catalog: options.catalog };
  if (!options.catalog.isSource(source)) throw QuarryError.of('ENGINE_UNKNOWN_NAME', { params: { what: 'The source', name: source, source } });
  const fullText =
    query.fullText === undefined
      ? undefined
      : (() => {
          const index = query.fullText.index?.value ?? DEFAULT_INDEX;
          if (!options.catalog.searchIndexes(source).includes(index)) {
            throw QuarryError.of('ENGINE_UNKNOWN_NAME', { params: { what: 'The search index', name: index, source } });
          }
          return { index, expr: lowerFullText(query.fullText.ast, { personNames: PERSON_NAME_INDEXES.has(index) }) };
        })();
  const outputs = query.returns.map((r) => lowerReturn(ctx, r, fullText !== undefined, options.source));
  return {
    kind: 'search',
    source,
    ...(query.filter === undefined ? {} : { filter: lowerFilter(ctx, query.filter) }),
    ...(fullText === undefined ? {} : { fullText }),
    outputs,
    warnings: options.warnings ?? [],
  };
}

interface Ctx {
  readonly source: string;
  readonly catalog: SourceCatalog;
}

/** Validation normally rejects unknown names first; this keeps the compiler safe without it. */
function catalogField(ctx: Ctx, name: string): CatalogField {
  const field = ctx.catalog.field(ctx.source, name);
  if (field === undefined) throw QuarryError.of('ENGINE_UNKNOWN_NAME', { params: { what: 'The field', name, source: ctx.source } });
  return field;
}

function planType(field: CatalogField): PlanFieldType {
  if (field.isEntity) return 'entity';
  switch (field.type) {
    case 'integer':
    case 'float':
    case 'date':
    case 'json':
      return field.type;
    default:
      return 'string';
  }
}

/** `research_orgs.name` → research_orgs / name; a bare entity compares its id. */
function planField(ctx: Ctx, path: FieldPath): PlanField {
  const [name, ...rest] = path.segments;
  const field = catalogField(ctx, name as string);
  const type = planType(field);
  const subfield = rest.length > 0 ? rest.join('.') : field.isEntity ? 'id' : undefined;
  if (subfield !== undefined && (!field.isEntity || rest.length > 1 || !ctx.catalog.hasSubfield(field.type, subfield))) {
    throw QuarryError.of('ENGINE_UNKNOWN_NAME', { params: { what: 'The field', name: path.path, source: ctx.source } });
  }
  return {
    name: field.name,
    type,
    multi: field.multi,
    ...(subfield === undefined ? {} : { subfield }),
    ...(field.isEntity ? { entity: field.type } : {}),
  };
}

function value(v: ScalarValue): PlanValue {
  return v.kind === 'Number' ? v.value : v.value;
}

function compareOp(op: ComparisonOperator): CompareOp {
  if (op === '~') throw new Error('~ is not a comparison here');
  return op;
}

function lowerFilter(ctx: Ctx, node: FilterNode): FilterPlan {
  switch (node.kind) {
    case 'And':
      return { kind: 'and', items: node.operands.map((o) => lowerFilter(ctx, o)) };
    case 'Or':
      return { kind: 'or', items: node.operands.map((o) => lowerFilter(ctx, o)) };
    case 'Not':
      return { kind: 'not', item: lowerFilter(ctx, node.operand) };
    case 'Comparison': {
      const field = planField(ctx, node.field);
      if (node.op === '~') {
        return { kind: 'words', field, words: String(value(node.value)).split(/\s+/).filter((w) => w.length > 0) };
      }
      return { kind: 'compare', field, op: node.op, value: value(node.value) };
    }
    case 'InList':
      return { kind: 'in', field: planField(ctx, node.field), values: node.values.map(value) };
    case 'InRange':
      return { kind: 'range', field: planField(ctx, node.field), low: value(node.low), high: value(node.high) };
    case 'IsEmpty':
      return { kind: 'empty', field: planField(ctx, node.field), empty: true };
    case 'IsNotEmpty':
      return { kind: 'empty', field: planField(ctx, node.field), empty: false };
    case 'CountComparison': {
      const field = planField(ctx, node.field);
      return { kind: 'count', field: { ...field, multi: true }, op: compareOp(node.op), value: node.value.value };
    }
    default:
      return assertNever(node);
  }
}

function lowerReturn(ctx: Ctx, clause: ReturnClause, hasFullText: boolean, text: string | undefined): OutputPlan {
  const target = clause.target;
  if (target.kind === 'FunctionTarget') {
    throw QuarryError.of('ENGINE_FUNCTION_NOT_OFFERED', {
      params: { name: target.call.name.value },
      span: target.call.span,
      ...(text === undefined ? {} : { source: text }),
    });
  }
  const name = target.name.value;
  const key = clause.alias?.value ?? name;
  const group = clause.group?.value;
  const limit = clause.limit?.value ?? DEFAULT_LIMIT;
  if (name === ctx.source) {
    const { fields, unnest } = expandFields(ctx, target.fields);
    const records: RecordsOutput = {
      kind: 'records',
      key,
      ...(group === undefined ? {} : { group }),
      fields: fields.map((f) => ({ key: f, field: f })),
      ...(unnest === undefined ? {} : { unnest }),
      order: order(ctx, clause, hasFullText),
      limit,
      skip: clause.skip?.value ?? 0,
      pagingGiven: clause.limit !== undefined || clause.skip !== undefined,
    };
    return records;
  }
  const field = catalogField(ctx, name);
  const indicators = (clause.aggregate ?? []).map((a) => a.value).filter((a): a is Indicator => INDICATORS.has(a) && a !== 'count');
  const sortKey = clause.sort?.key.path;
  const sortBy: Indicator = sortKey !== undefined && INDICATORS.has(sortKey) ? (sortKey as Indicator) : 'count';
  const allIndicators = sortBy !== 'count' && !indicators.includes(sortBy) ? [...indicators, sortBy] : indicators;
  const facet: FacetOutput = {
    kind: 'facet',
    key,
    ...(group === undefined ? {} : { group }),
    field: field.name,
    ...(field.isEntity ? { entity: field.type } : {}),
    valueType: planType(field),
    multi: field.multi,
    indicators: allIndicators,
    sortBy,
    direction: clause.sort?.direction ?? 'desc',
    limit,
  };
  return facet;
}

function order(ctx: Ctx, clause: ReturnClause, hasFullText: boolean): OrderPlan {
  const sort = clause.sort;
  if (sort === undefined) return hasFullText ? { by: 'relevance' } : { by: 'default' };
  if (sort.key.path === 'relevance') return hasFullText ? { by: 'relevance' } : { by: 'default' };
  const field = catalogField(ctx, sort.key.path);
  return { by: 'field', field: field.name, direction: sort.direction ?? 'desc' };
}

/** `[basics + times_cited - doi + unnest(category_for)]` → the field list, in order. */
function expandFields(ctx: Ctx, specs: readonly FieldSpec[] | undefined): { fields: string[]; unnest?: string } {
  const basics = ctx.catalog.fieldset(ctx.source, 'basics') ?? ['id'];
  if (specs === undefined) return { fields: [...basics] };
  const fields: string[] = [];
  const excluded = new Set<string>();
  let unnest: string | undefined;
  const add = (name: string): void => {
    if (!fields.includes(name)) fields.push(name);
  };
  for (const spec of specs) {
    const name = spec.path.path;
    const names = ctx.catalog.fieldset(ctx.source, name) ?? [catalogField(ctx, name).name];
    if (spec.kind === 'Unnest') {
      unnest = catalogField(ctx, name).name;
      add(unnest);
    } else if (spec.exclude) {
      for (const n of names) excluded.add(n);
    } else {
      for (const n of names) add(n);
    }
  }
  const kept = fields.filter((f) => !excluded.has(f));
  return unnest === undefined ? { fields: kept } : { fields: kept, unnest };
}
