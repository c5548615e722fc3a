import type { PreparedQuery } from './run-query.ts';
import type { QueryLabels } from './types.ts';

/**
 * The metric labels of a prepared query: its source and the kind of result it asks for.
 *
 * @example labelsOf(prepareQuery('search grants return funders', { dslVersion: 2 })) // { source: 'grants', result: 'facet' }
 */
export function labelsOf(prepared: PreparedQuery): QueryLabels {
  if (prepared.kind === 'answer') return { source: 'describe', result: 'describe' };
  // A statement function: `function`, and its name (`extract_grants`).
  if (prepared.kind === 'function') return { source: 'function', result: prepared.prepared.name };
  const kinds = new Set(prepared.plan.outputs.map((output) => output.kind));
  const [only] = kinds;
  return { source: prepared.plan.source, result: kinds.size === 1 && only !== undefined ? only : 'mixed' };
}
