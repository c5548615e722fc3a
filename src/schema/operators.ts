import type { FilterOperator, ScalarType } from './types.ts';

const ORDERING: readonly FilterOperator[] = ['>', '<', '>=', '<=', 'range'];

/**
 * The filter operators a value of this type supports (spec/dsl.md §4): `~` only on
 * strings; no ordering on `json` values; emptiness not on counters and flags; `count()`
 * only on multi-value fields, and not on entity sub-fields.
 *
 * @example operatorsForScalar('integer', { multi: false, counter: true, subfield: false })
 * // ['=', '!=', 'in', '>', '<', '>=', '<=', 'range']
 */
export function operatorsForScalar(
  type: ScalarType,
  options: { readonly multi: boolean; readonly counter: boolean; readonly subfield: boolean },
): FilterOperator[] {
  const ops: FilterOperator[] = ['=', '!=', 'in'];
  if (type !== 'json') ops.push(...ORDERING);
  if (type === 'string') ops.push('~');
  if (!options.counter) ops.push('empty');
  if (options.multi && !options.subfield) ops.push('count');
  return ops;
}

/** Operators on an entity field itself: its id is compared; `count()` when multi-value. */
export function operatorsForEntity(multi: boolean): FilterOperator[] {
  return multi ? ['=', '!=', 'in', 'empty', 'count'] : ['=', '!=', 'in', 'empty'];
}

/** How an operator is written in messages. */
export function describeOperator(op: FilterOperator): string {
  switch (op) {
    case 'in':
      return 'in [...]';
    case 'range':
      return 'in [low:high]';
    case 'empty':
      return 'is empty';
    case 'count':
      return 'count()';
    case '=':
    case '!=':
    case '>':
    case '<':
    case '>=':
    case '<=':
    case '~':
      return op;
  }
}
