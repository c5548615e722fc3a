/**
 * `describe ...` and top-level function calls are answered without the database.
 */
import type { DescribeQuery, FunctionCallQuery } from '../dsl/index.ts';
import { QuarryError } from '../errors/index.ts';
import type { DslVersion, QueryResult } from './types.ts';

export function describeQuery(ast: DescribeQuery | FunctionCallQuery, options: { dslVersion: DslVersion; source: string }): QueryResult {
  if (ast.kind === 'FunctionCallQuery') {
    throw QuarryError.of('ENGINE_FUNCTION_NOT_OFFERED', { params: { name: ast.call.name.value }, span: ast.call.span, source: options.source });
  }
  // PENDING: schema/ describeQuery(ast, { dslVersion }) is wired here as soon as it lands.
  if (ast.target === 'version') return options.dslVersion === 1 ? { release: '1.0', version: '1.0.0' } : { release: '2.0', version: '2.0.0' };
  return {};
}
