/**
 * Builds the validated query (validated.ts) from a search query that passed every rule.
 * Resolution here cannot fail for a user's mistake; if it does, a rule is missing, and
 * that is a bug (a plain Error, surfacing as INTERNAL).
 */
import { assertNever, type FilterNode, type ReturnClause, type ScalarValue, type SearchQuery } from '../dsl/ast.ts';
import { expandFieldList } from './expand-fields.ts';
import { facetFieldList } from './facet-fields.ts';
import { perYearArgs } from './function-args.ts';
import { isIndicatorName } from './indicators.ts';
import { PAGING } from './paging-limits.ts';
import { returnKind } from './references.ts';
import { resolvePath } from './resolve.ts';
import { resultKey } from './rules/result-keys.ts';
import { checkSearchFunction } from './search-functions.ts';
import type { IndicatorName, ScalarType, Schema, SourceDescriptor } from './types.ts';
import type {
  FilterTarget,
  RecordsSort,
  ValidatedFilter,
  ValidatedFullText,
  ValidatedReturn,
  ValidatedSearch,
} from './validated.ts';
import { normaliseValue, wordsOf } from './values.ts';

function bug(what: string): never {
  throw new Error(`validated query: ${what} passed the rules but does not resolve`);
}

function targetOf(schema: Schema, source: SourceDescriptor, segments: readonly string[], path: string): FilterTarget {
  const resolution = resolvePath(schema, source, segments);
  if (resolution.kind !== 'field') bug(`field ${path}`);
  const { field } = resolution;
  if (field.entity !== undefined) {
    const subfield = resolution.subfield ?? schema.entityFields.get(field.entity)?.get('id');
    if (subfield === undefined) bug(`id of ${field.entity}`);
    return Object.freeze({
      field,
      subfield,
      valueType: subfield.type,
      multi: field.isMultivalue || subfield.isMultivalue,
      path,
    });
  }
  return Object.freeze({ field, valueType: field.type as ScalarType, multi: field.isMultivalue, path });
}

function normalise(target: FilterTarget, value: ScalarValue): string | number {
  const result = normaliseValue(target.valueType, value);
  if (!result.ok) bug(`value for ${target.path}`);
  return result.value;
}

function lowerFilter(schema: Schema, source: SourceDescriptor, node: FilterNode): ValidatedFilter {
  switch (node.kind) {
    case 'And':
      return Object.freeze({
        kind: 'and',
        operands: Object.freeze(node.operands.map((o) => lowerFilter(schema, source, o))),
      });
    case 'Or':
      return Object.freeze({
        kind: 'or',
        operands: Object.freeze(node.operands.map((o) => lowerFilter(schema, source, o))),
      });
    case 'Not':
      return Object.freeze({ kind: 'not', operand: lowerFilter(schema, source, node.operand) });
    case 'Comparison': {
      const target = targetOf(schema, source, node.field.segments, node.field.path);
      if (node.op === '~') {
        const text = node.value.kind === 'String' ? node.value.value : node.value.raw;
        return Object.freeze({ kind: 'words', target, text, words: Object.freeze(wordsOf(text)) });
      }
      return Object.freeze({ kind: 'compare', target, op: node.op, value: normalise(target, node.value) });
    }
    case 'InList': {
      const target = targetOf(schema, source, node.field.segments, node.field.path);
      return Object.freeze({ kind: 'in', target, values: Object.freeze(node.values.map((v) => normalise(target, v))) });
    }
    case 'InRange': {
      const target = targetOf(schema, source, node.field.segments, node.field.path);
      return Object.freeze({
        kind: 'range',
        target,
        low: normalise(target, node.low),
        high: normalise(target, node.high),
      });
    }
    case 'IsEmpty':
    case 'IsNotEmpty':
      return Object.freeze({
        kind: 'empty',
        target: targetOf(schema, source, node.field.segments, node.field.path),
        empty: node.kind === 'IsEmpty',
      });
    case 'CountComparison': {
      const field = schema.fieldsBySource.get(source.name)?.get(node.field.path);
      if (field === undefined || node.op === '~') bug(`count(${node.field.path})`);
      return Object.freeze({ kind: 'count', field, op: node.op, value: node.value.value });
    }
    default:
      return assertNever(node);
  }
}

function lowerReturn(
  schema: Schema,
  source: SourceDescriptor,
  ret: ReturnClause,
  hasFullText: boolean,
): ValidatedReturn {
  const key = resultKey(ret);
  const group = ret.group === undefined ? {} : { group: ret.group.value };
  const target = ret.target;
  if (target.kind === 'FunctionTarget') {
    const args = perYearArgs(target.call);
    const name = target.call.name.value;
    if (!args.ok || (name !== 'citations_per_year' && name !== 'funding_per_year')) bug(`function ${name}`);
    return Object.freeze({
      kind: 'function',
      key,
      ...group,
      name,
      args: Object.freeze(args.args),
      span: ret.span,
    });
  }
  if (returnKind(ret, source) === 'records') {
    const fields = expandFieldList(schema, source, target.fields);
    if (fields === undefined) bug(`field list of ${target.name.value}`);
    let sort: RecordsSort;
    if (ret.sort !== undefined) {
      const direction = ret.sort.direction ?? 'desc';
      // `score` is the relevance of each record: sorting by it is sorting by relevance.
      if (ret.sort.key.path === 'relevance' || ret.sort.key.path === 'score') {
        sort = { by: 'relevance', direction, explicit: true };
      } else {
        const field = schema.fieldsBySource.get(source.name)?.get(ret.sort.key.path);
        if (field === undefined) bug(`sort key ${ret.sort.key.path}`);
        sort = { by: 'field', field, direction, explicit: true };
      }
    } else if (hasFullText) {
      sort = { by: 'relevance', direction: 'desc', explicit: false };
    } else {
      const field = schema.fieldsBySource.get(source.name)?.get(source.defaultOrder.field);
      if (field === undefined) bug(`default order of ${source.name}`);
      sort = { by: 'field', field, direction: source.defaultOrder.direction, explicit: false };
    }
    return Object.freeze({
      kind: 'records',
      key,
      ...group,
      fields: Object.freeze(fields),
      sort: Object.freeze(sort),
      limit: ret.limit?.value ?? PAGING.defaultLimit,
      skip: ret.skip?.value ?? 0,
      limitGiven: ret.limit !== undefined,
      skipGiven: ret.skip !== undefined,
      span: ret.span,
    });
  }
  const field = schema.fieldsBySource.get(source.name)?.get(target.name.value);
  if (field?.facetKind === undefined) bug(`facet ${target.name.value}`);
  const indicators: IndicatorName[] = ['count'];
  for (const name of ret.aggregate ?? []) {
    if (!isIndicatorName(name.value)) bug(`indicator ${name.value}`);
    if (!indicators.includes(name.value)) indicators.push(name.value);
  }
  const sortKey = ret.sort?.key.path ?? 'count';
  if (!isIndicatorName(sortKey)) bug(`facet sort ${sortKey}`);
  const entity = field.entity === undefined ? undefined : schema.entities.get(field.entity);
  const list = target.fields === undefined ? undefined : facetFieldList(schema, field, target.fields);
  if (list?.kind === 'unknown') bug(`facet field ${list.name}`);
  const fieldList =
    list === undefined
      ? undefined
      : list.kind === 'source'
        ? Object.freeze({ kind: list.kind, source: list.source, fields: Object.freeze([...list.fields]) })
        : Object.freeze({ kind: list.kind, fields: Object.freeze([...list.fields]) });
  return Object.freeze({
    kind: 'facet',
    key,
    ...group,
    field,
    facetKind: field.facetKind,
    ...(entity === undefined ? {} : { entity }),
    ...(fieldList === undefined ? {} : { fieldList }),
    idType: entity === undefined ? (field.type as ScalarType) : 'string',
    indicators: Object.freeze(indicators),
    sortBy: sortKey,
    direction: ret.sort?.direction ?? 'desc',
    limit: ret.limit?.value ?? PAGING.defaultFacetLimit,
    limitGiven: ret.limit !== undefined,
    span: ret.span,
  });
}

/** The validated form of a search query that passed every rule. */
export function lowerSearch(
  schema: Schema,
  source: SourceDescriptor,
  query: SearchQuery,
  warnings: readonly string[],
): ValidatedSearch {
  let fullText: ValidatedFullText | undefined;
  if (query.fullText !== undefined) {
    const name = query.fullText.index?.value ?? source.defaultIndex;
    const index = schema.indexesBySource.get(source.name)?.get(name);
    if (index === undefined) bug(`search index ${name}`);
    const call = query.fullText.call;
    const checked = call === undefined ? undefined : checkSearchFunction(call, query.fullText.ast);
    if (checked !== undefined && !checked.ok) bug(`search function ${call?.name.value ?? ''}`);
    fullText = Object.freeze({
      index,
      isPersonNameIndex: index.isPersonNameIndex,
      ast: query.fullText.ast,
      text: query.fullText.text.value,
      ...(checked?.ok === true ? { fn: checked.fn } : {}),
    });
  }
  return Object.freeze({
    kind: 'search',
    dslVersion: schema.version,
    source,
    ...(fullText === undefined ? {} : { fullText }),
    ...(query.filter === undefined ? {} : { filter: lowerFilter(schema, source, query.filter) }),
    returns: Object.freeze(query.returns.map((r) => lowerReturn(schema, source, r, fullText !== undefined))),
    warnings: Object.freeze([...warnings]),
  });
}
