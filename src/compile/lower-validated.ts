/**
 * Lowers the validated query (`schema/validated.ts`) to the dialect-neutral SearchPlan:
 * descriptors become the plain names and types the dialects need, version-1 fields are
 * read from their replacement, and the full-text expression becomes a `TextExpr`.
 */
import type { FieldDescriptor } from '../schema/types.ts';
import type {
  FacetReturn,
  FilterTarget,
  ValidatedFilter,
  ValidatedReturn,
  ValidatedSearch,
} from '../schema/validated.ts';
import { heldOpenAccessValue } from '../schema/open-access-v1.ts';
import { lowerFullText, lowerSearchFunction } from './lower-fulltext.ts';
import type {
  FacetOutput,
  FilterPlan,
  Indicator,
  OutputPlan,
  PlanField,
  PlanFieldType,
  ReturnedFieldPlan,
  SearchPlan,
} from './plan.ts';

/**
 * @example lowerValidated(validate(parse('search publications where year = 2020 return year'), opts).query)
 *   // { kind: 'search', source: 'publications', filter: { kind: 'compare', field: { name: 'year', type: 'integer', multi: false }, op: '=', value: 2020 },
 *   //   outputs: [{ kind: 'facet', key: 'year', field: 'year', valueType: 'integer', ... }], warnings: [] }
 */
export function lowerValidated(query: ValidatedSearch): SearchPlan {
  const fullText =
    query.fullText === undefined
      ? undefined
      : {
          index: query.fullText.index.name,
          expr:
            query.fullText.fn === undefined
              ? lowerFullText(query.fullText.ast, { personNames: query.fullText.isPersonNameIndex })
              : lowerSearchFunction(query.fullText.ast, query.fullText.fn, {
                  personNames: query.fullText.isPersonNameIndex,
                }),
        };
  return {
    kind: 'search',
    source: query.source.name,
    ...(query.filter === undefined ? {} : { filter: lowerFilter(query.filter) }),
    ...(fullText === undefined ? {} : { fullText }),
    outputs: query.returns.map(lowerReturn),
    warnings: query.warnings,
  };
}

/** The held field whose data answers for `field` (itself, a version-1 field's replacement, or a current name's held field). */
function storedName(field: FieldDescriptor): string {
  return field.deprecated?.readsFrom ?? field.readsFrom ?? field.name;
}

function planType(field: FieldDescriptor): PlanFieldType {
  if (field.isEntity) return 'entity';
  return field.type as PlanFieldType;
}

function targetField(target: FilterTarget): PlanField {
  const { field } = target;
  return {
    name: storedName(field),
    type: field.isEntity ? 'entity' : target.valueType,
    multi: target.multi,
    ...(target.subfield === undefined ? {} : { subfield: target.subfield.name }),
    ...(field.entity === undefined ? {} : { entity: field.entity }),
  };
}

function lowerFilter(filter: ValidatedFilter): FilterPlan {
  switch (filter.kind) {
    case 'and':
      return { kind: 'and', items: filter.operands.map(lowerFilter) };
    case 'or':
      return { kind: 'or', items: filter.operands.map(lowerFilter) };
    case 'not':
      return { kind: 'not', item: lowerFilter(filter.operand) };
    case 'compare':
      return {
        kind: 'compare',
        field: targetField(filter.target),
        op: filter.op,
        value: heldValue(filter.target, filter.value),
      };
    case 'words':
      return { kind: 'words', field: targetField(filter.target), words: filter.words };
    case 'in':
      return {
        kind: 'in',
        field: targetField(filter.target),
        values: filter.values.map((v) => heldValue(filter.target, v)),
      };
    case 'range':
      return { kind: 'range', field: targetField(filter.target), low: filter.low, high: filter.high };
    case 'empty':
      return { kind: 'empty', field: targetField(filter.target), empty: filter.empty };
    case 'count':
      return {
        kind: 'count',
        field: {
          name: storedName(filter.field),
          type: planType(filter.field),
          multi: true,
          ...(filter.field.entity === undefined ? {} : { entity: filter.field.entity }),
        },
        op: filter.op,
        value: filter.value,
      };
  }
}

/**
 * Fields whose values are publications' author objects (spec/schema-2026.md §6.4). Other
 * sources' `authors` (datasets: `{name, orcid}`) have shapes of their own.
 */
const AUTHOR_OBJECT_FIELDS: ReadonlySet<string> = new Set(['publications.authors']);

/** Version 1's `open_access_categories` answered objects, not the v2 strings it reads. */
const OPEN_ACCESS_CATEGORY_FIELDS: ReadonlySet<string> = new Set(['publications.open_access_categories']);

const isOpenAccessCategories = (field: FieldDescriptor): boolean =>
  OPEN_ACCESS_CATEGORY_FIELDS.has(`${field.source}.${field.name}`);

/**
 * The held value a filter compares with: version 1's `open_access_categories` (or its `.id`)
 * names categories by the v1 ids (`gold_bronze`), the data holds the v2 ones (`bronze`).
 */
function heldValue<V>(target: FilterTarget, value: V): V {
  if (!isOpenAccessCategories(target.field) || typeof value !== 'string') return value;
  if (target.subfield !== undefined && target.subfield.name !== 'id') return value;
  return heldOpenAccessValue(value) as V;
}

function objectsOf(field: FieldDescriptor, stored: string): ReturnedFieldPlan['objects'] {
  if (field.deprecated?.derivation !== undefined) return undefined;
  if (AUTHOR_OBJECT_FIELDS.has(`${field.source}.${stored}`)) return 'authors';
  if (isOpenAccessCategories(field)) return 'open-access-categories';
  return undefined;
}

function returnedField(field: FieldDescriptor): ReturnedFieldPlan {
  const derivation = field.deprecated?.derivation;
  const stored = storedName(field);
  const objects = objectsOf(field, stored);
  return {
    key: field.name,
    field: stored,
    ...(derivation === undefined ? {} : { derivation }),
    ...(objects === undefined ? {} : { objects }),
  };
}

/** A facet's field list: the entity's record fields by id, or the display keys shown. */
function facetFieldList(ret: FacetReturn): Pick<FacetOutput, 'entityRecords' | 'displayKeys'> {
  const list = ret.fieldList;
  if (list === undefined) return {};
  if (list.kind === 'entity') return { displayKeys: list.fields.map((f) => f.name).filter((n) => n !== 'id') };
  const fields = list.fields.filter((f) => f.name !== 'id');
  return {
    entityRecords: {
      source: list.source.name,
      fields: fields.map(returnedField),
      idLists: fields.filter((f) => f.isEntity && f.isMultivalue).map((f) => f.name),
    },
  };
}

function lowerReturn(ret: ValidatedReturn): OutputPlan {
  const group = ret.group === undefined ? {} : { group: ret.group };
  switch (ret.kind) {
    case 'records': {
      const unnests = ret.fields.filter((f) => f.unnest).map((f) => f.field.name);
      const unnest = unnests[0];
      return {
        kind: 'records',
        key: ret.key,
        ...group,
        fields: ret.fields.map((f) => returnedField(f.field)),
        ...(unnest === undefined ? {} : { unnest, unnests }),
        order:
          ret.sort.by === 'relevance'
            ? { by: 'relevance' }
            : { by: 'field', field: storedName(ret.sort.field), direction: ret.sort.direction },
        limit: ret.limit,
        skip: ret.skip,
        pagingGiven: ret.limitGiven || ret.skipGiven,
      };
    }
    case 'facet':
      return {
        kind: 'facet',
        key: ret.key,
        ...group,
        field: storedName(ret.field),
        ...(ret.entity === undefined ? {} : { entity: ret.entity.name }),
        ...facetFieldList(ret),
        ...(isOpenAccessCategories(ret.field) ? { objects: 'open-access-categories' as const } : {}),
        valueType: ret.facetKind === 'entity' ? 'entity' : ret.idType,
        multi: ret.field.isMultivalue,
        indicators: ret.indicators.filter((i): i is Indicator => i !== 'count'),
        sortBy: ret.sortBy,
        direction: ret.direction,
        limit: ret.limit,
      };
    case 'function':
      if (ret.name === 'funding_per_year') {
        return {
          kind: 'funding_per_year',
          key: ret.key,
          ...group,
          from: ret.args.from,
          to: ret.args.to,
          currency: ret.args.currency ?? 'USD',
        };
      }
      return { kind: 'citations_per_year', key: ret.key, ...group, from: ret.args.from, to: ret.args.to };
  }
}
