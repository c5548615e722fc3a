import type { ErrorCategory } from './categories.ts';
import { definitionOf, type ErrorCode } from './registry.ts';
import { locate, type Position, type Span } from './span.ts';

export type ErrorParams = Readonly<Record<string, string | number>>;

/** One thing wrong, with where it is when it is in the query text. */
export interface Problem {
  readonly code: ErrorCode;
  readonly message: string;
  readonly span?: Span;
  readonly position?: Position;
}

export interface ProblemInit {
  readonly params?: ErrorParams;
  /** Where in the query; with `source`, also gives line and column. */
  readonly span?: Span;
  /** The whole query text the span points into. */
  readonly source?: string;
}

/** Fills `{name}` placeholders. Unknown placeholders stay visible so a missing parameter is noticed in tests. */
export function formatMessage(template: string, params: ErrorParams = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

export function problem(code: ErrorCode, init: ProblemInit = {}): Problem {
  const message = formatMessage(definitionOf(code).message, init.params);
  const { span, source } = init;
  if (span === undefined) return { code, message };
  if (source === undefined) return { code, message, span };
  return { code, message, span, position: locate(source, span.start) };
}

/**
 * The one error type Quarry throws on purpose. It carries one or more problems (validation
 * reports every problem it finds, up to a cap); the first decides the code and category.
 * Anything thrown that is not a QuarryError is a bug and surfaces as INTERNAL.
 */
export class QuarryError extends Error {
  readonly problems: readonly Problem[];

  constructor(problems: Problem | readonly Problem[], options?: { cause?: unknown }) {
    const list: readonly Problem[] = Array.isArray(problems) ? problems : [problems as Problem];
    if (list.length === 0) throw new TypeError('QuarryError needs at least one problem');
    super(list.map((p) => p.message).join('\n'), options);
    this.name = 'QuarryError';
    this.problems = Object.freeze([...list]);
  }

  /** Shorthand for a single problem. */
  static of(code: ErrorCode, init: ProblemInit = {}, options?: { cause?: unknown }): QuarryError {
    return new QuarryError(problem(code, init), options);
  }

  get code(): ErrorCode {
    return this.first.code;
  }

  get category(): ErrorCategory {
    return definitionOf(this.code).category;
  }

  get first(): Problem {
    return this.problems[0] as Problem;
  }
}

export function isQuarryError(value: unknown): value is QuarryError {
  return value instanceof QuarryError;
}
