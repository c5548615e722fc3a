/**
 * The schema: Quarry's data model (spec/data-model.md) per language version, the
 * validation of parsed queries against it, and `describe`. Knows nothing of SQL.
 *
 * @example
 * const { query, warnings } = validate(parse(text), { dslVersion: 2, source: text });
 */
export {
  validate,
  validatedStatement,
  DEFAULT_MAX_PROBLEMS,
  type ValidateOptions,
  type ValidationResult,
  type SchemaPermissions,
} from './validate.ts';
export { schemaFor, isSourceName } from './build.ts';
export { describe, describeQuery, VERSION_INFO } from './describe.ts';
export { suggest, didYouMean } from './suggest.ts';
export { UNSUPPORTED_FUNCTIONS, FUNCTIONS } from './offered.ts';
export { INDICATORS } from './indicators.ts';
export { PAGING } from './paging-limits.ts';
export { normaliseDate } from './values.ts';
export type * from './types.ts';
export type * from './validated.ts';
export type * from './statements.ts';
