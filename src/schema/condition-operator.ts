import type { FilterNode } from '../dsl/ast.ts';
import type { EntityFieldDescriptor, FieldDescriptor, FilterOperator } from './types.ts';

/** The schema operator a filter condition uses; undefined for and/or/not. */
export function conditionOperator(node: FilterNode): FilterOperator | undefined {
  switch (node.kind) {
    case 'Comparison':
      return node.op;
    case 'InList':
      return 'in';
    case 'InRange':
      return 'range';
    case 'IsEmpty':
    case 'IsNotEmpty':
      return 'empty';
    case 'CountComparison':
      return 'count';
    case 'And':
    case 'Or':
    case 'Not':
      return undefined;
  }
}

/** The operators a filter target supports: the sub-field's for `field.sub`, else the field's. */
export function targetOperators(
  field: FieldDescriptor,
  subfield: EntityFieldDescriptor | undefined,
): readonly FilterOperator[] {
  return subfield === undefined ? field.operators : field.isFilter ? subfield.operators : [];
}
