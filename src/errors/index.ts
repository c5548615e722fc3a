export { ERROR_CATEGORIES, type ErrorCategory } from './categories.ts';
export type { CodeDefinition, CodeTable } from './code-table.ts';
export { ERROR_CODES, CODE_AREAS, definitionOf, type ErrorCode } from './registry.ts';
export {
  QuarryError,
  isQuarryError,
  problem,
  formatMessage,
  type Problem,
  type ProblemInit,
  type ErrorParams,
} from './quarry-error.ts';
export { renderErrorBody, isQueryCategory, type ErrorBody } from './render.ts';
export { formatWithCaret } from './caret.ts';
export { locate, type Span, type Position } from './span.ts';
