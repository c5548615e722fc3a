import type { Name } from '../../dsl/ast.ts';
import { problem, type Problem } from '../../errors/index.ts';
import { isSourceName } from '../build.ts';
import type { ValidateOptions } from '../context.ts';
import { entitledTo } from '../entitlements.ts';
import { didYouMean } from '../suggest.ts';
import type { Schema, SourceDescriptor } from '../types.ts';

/**
 * Rule `known-source`: the searched source is held, offered, and in the caller's
 * subscription. It runs before every other rule (they all need the source), so it returns
 * the source or the problem instead of reporting through a context.
 *
 * Rejects `search publication ...` (did you mean) and a source outside `permissions.sources`.
 */
export function checkSearchedSource(
  schema: Schema,
  name: Name,
  options: ValidateOptions,
): { readonly source: SourceDescriptor } | { readonly problem: Problem } {
  const at = { span: name.span, source: options.source };
  const source = isSourceName(name.value) ? schema.sources.get(name.value) : undefined;
  if (source === undefined) {
    const hint = didYouMean(name.value, [...schema.sources.keys()]);
    return { problem: problem('SCHEMA_UNKNOWN_SOURCE', { ...at, params: { name: name.value, hint } }) };
  }
  if (!entitledTo(options.permissions, source.name)) {
    return { problem: problem('SCHEMA_SOURCE_NOT_SUBSCRIBED', { ...at, params: { name: source.name } }) };
  }
  return { source };
}
