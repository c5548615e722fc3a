/**
 * Every place a search query names a field, with the role it plays there, collected once
 * so that each rule looks at the names it cares about without walking the tree itself.
 */
import {
  assertNever,
  type FieldPath,
  type FilterNode,
  type ReturnClause,
  type SearchQuery,
  type Span,
} from '../dsl/ast.ts';
import type { SourceDescriptor } from './types.ts';

export type ReferenceRole =
  /** A condition of the where clause (`year = 2020`, `journal.title ~ "x"`). */
  | 'filter'
  /** `count(field) op N`. */
  | 'count'
  /** A field or fieldset in a records field list (`[id + basics - doi]`). */
  | 'field-list'
  /** `unnest(field)` in a field list. */
  | 'unnest'
  /** `sort by FIELD` on a records return. */
  | 'sort'
  /** The name of a facet return (`return funders`). */
  | 'facet';

export interface FieldReference {
  readonly role: ReferenceRole;
  readonly segments: readonly string[];
  readonly path: string;
  readonly span: Span;
  /** For filter roles: the condition it belongs to. */
  readonly condition?: FilterNode;
  /** For return roles: the return it belongs to. */
  readonly ret?: ReturnClause;
}

/** What a return clause returns, decided by its target name. */
export type ReturnKind = 'records' | 'facet' | 'function';

export function returnKind(ret: ReturnClause, source: SourceDescriptor): ReturnKind {
  if (ret.target.kind === 'FunctionTarget') return 'function';
  return ret.target.name.value === source.name ? 'records' : 'facet';
}

function fromPath(role: ReferenceRole, path: FieldPath, extra: Partial<FieldReference> = {}): FieldReference {
  return { role, segments: path.segments, path: path.path, span: path.span, ...extra };
}

function collectFilter(node: FilterNode, out: FieldReference[]): void {
  switch (node.kind) {
    case 'And':
    case 'Or':
      for (const operand of node.operands) collectFilter(operand, out);
      return;
    case 'Not':
      collectFilter(node.operand, out);
      return;
    case 'CountComparison':
      out.push(fromPath('count', node.field, { condition: node }));
      return;
    case 'Comparison':
    case 'InList':
    case 'InRange':
    case 'IsEmpty':
    case 'IsNotEmpty':
      out.push(fromPath('filter', node.field, { condition: node }));
      return;
    default:
      assertNever(node);
  }
}

/** Collects the field references of a search query in text order per clause. */
export function collectReferences(query: SearchQuery, source: SourceDescriptor): FieldReference[] {
  const out: FieldReference[] = [];
  if (query.filter !== undefined) collectFilter(query.filter, out);
  for (const ret of query.returns) {
    if (ret.target.kind !== 'ResultTarget') continue;
    const kind = returnKind(ret, source);
    if (kind === 'facet') {
      const name = ret.target.name;
      out.push({ role: 'facet', segments: [name.value], path: name.value, span: name.span, ret });
      continue;
    }
    for (const spec of ret.target.fields ?? []) {
      out.push(fromPath(spec.kind === 'Unnest' ? 'unnest' : 'field-list', spec.path, { ret }));
    }
    if (ret.sort !== undefined && !(ret.sort.key.segments.length === 1 && ret.sort.key.path === 'relevance')) {
      out.push(fromPath('sort', ret.sort.key, { ret }));
    }
  }
  return out;
}
