import type { ErrorCategory } from './categories.ts';

/** How one error code is described: its category, its message template, and how to fix it. */
export interface CodeDefinition {
  readonly category: ErrorCategory;
  /**
   * The message, with `{name}` placeholders filled from the error's parameters.
   * Written as a sentence for the person who sent the query.
   */
  readonly message: string;
  /** What the person should do about it; shown in `docs/errors.md`. */
  readonly fix: string;
}

export type CodeTable = Readonly<Record<string, CodeDefinition>>;
