/**
 * A filter as tests of number columns of one table, for an engine that holds those columns
 * in memory (`engine/columnar/`): `year > 2015 and count(researchers) > 1` is
 * `year > 2015` and `n_researchers > 1` on `publications_narrow`. Only what such a test
 * answers exactly as the SQL does: an AND of comparisons, ranges and lists of numbers on
 * single-valued number columns or stored link counts. A missing value (NULL) fails every
 * one of them, as in SQL; `!=` (which lets a missing value through) and anything else make
 * the filter not describable (undefined), and the SQL then chooses the records.
 */
import { coerce } from './filters.ts';
import type { SourceLayout } from './layout.ts';
import type { FilterPlan, PlanField, PlanValue } from './plan.ts';

export type ColumnTest =
  | { readonly kind: 'compare'; readonly op: '=' | '<' | '>' | '<=' | '>='; readonly value: number }
  | { readonly kind: 'range'; readonly low: number; readonly high: number }
  | { readonly kind: 'in'; readonly values: readonly number[] };

export interface ColumnCondition {
  readonly column: string;
  readonly test: ColumnTest;
}

/**
 * @example columnConditions(narrowPubs, and(year > 2015, count(researchers) > 1))
 *   // [{ column: 'year', test: { kind: 'compare', op: '>', value: 2015 } },
 *   //  { column: 'n_researchers', test: { kind: 'compare', op: '>', value: 1 } }]
 */
export function columnConditions(source: SourceLayout, filter: FilterPlan): ColumnCondition[] | undefined {
  switch (filter.kind) {
    case 'and': {
      const all: ColumnCondition[] = [];
      for (const item of filter.items) {
        const part = columnConditions(source, item);
        if (part === undefined) return undefined;
        all.push(...part);
      }
      return all;
    }
    case 'count': {
      if (filter.op === '!=') return undefined;
      if (filter.field.subfield !== undefined && filter.field.subfield !== 'id') return undefined;
      const column = source.countColumns?.[filter.field.name];
      return column === undefined
        ? undefined
        : [{ column, test: { kind: 'compare', op: filter.op, value: filter.value } }];
    }
    case 'compare': {
      if (filter.op === '!=') return undefined;
      const column = numberColumn(source, filter.field);
      const value = numberOf(filter.field, filter.value);
      if (column === undefined || value === undefined) return undefined;
      return [{ column, test: { kind: 'compare', op: filter.op, value } }];
    }
    case 'range': {
      const column = numberColumn(source, filter.field);
      const low = numberOf(filter.field, filter.low);
      const high = numberOf(filter.field, filter.high);
      if (column === undefined || low === undefined || high === undefined) return undefined;
      return [{ column, test: { kind: 'range', low, high } }];
    }
    case 'in': {
      const column = numberColumn(source, filter.field);
      const values = filter.values.map((v) => numberOf(filter.field, v));
      if (column === undefined || values.some((v) => v === undefined)) return undefined;
      return [{ column, test: { kind: 'in', values: values as number[] } }];
    }
    case 'or':
    case 'not':
    case 'words':
    case 'empty':
      return undefined;
  }
}

function numberColumn(source: SourceLayout, field: PlanField): string | undefined {
  if (field.multi || field.subfield !== undefined) return undefined;
  if (field.type !== 'integer' && field.type !== 'float') return undefined;
  return source.columns[field.name];
}

/** The value as the SQL binds it, when that is a number (a text compared with a number column is not). */
function numberOf(field: PlanField, value: PlanValue): number | undefined {
  const coerced = coerce(field, value);
  return typeof coerced === 'number' && Number.isFinite(coerced) ? coerced : undefined;
}
