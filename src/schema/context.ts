import type { SearchQuery, Span } from '../dsl/ast.ts';
import { problem, type ErrorCode, type ErrorParams, type Problem } from '../errors/index.ts';
import type { FieldReference } from './references.ts';
import type { StatementChecks } from './statements.ts';
import { resolvePath, type PathResolution } from './resolve.ts';
import type { DslVersion, Schema, SourceDescriptor } from './types.ts';

/** What the caller may touch (filled by the service from the account's subscription). */
export interface SchemaPermissions {
  /** Sources the account is subscribed to; undefined means all. */
  readonly sources?: readonly string[];
}

export interface ValidateOptions {
  readonly dslVersion: DslVersion;
  /** The whole query text, so problems carry line and column. */
  readonly source: string;
  readonly permissions?: SchemaPermissions;
  /** At most this many problems are reported (default 20). */
  readonly maxProblems?: number;
  /**
   * The statement functions offered (`src/functions/registry.ts`, handed in by the engine).
   * Without it a top-level function call is answered as before: not offered.
   */
  readonly statements?: StatementChecks;
}

/**
 * What a rule sees: the query, the resolved source, the field references, and `report` /
 * `warn` to record what it finds. Rules never throw for a user's mistake; the driver
 * collects every problem and throws once.
 */
export class ValidationContext {
  readonly problems: Problem[] = [];
  readonly warnings: string[] = [];
  private readonly resolutions = new Map<FieldReference, PathResolution>();

  constructor(
    readonly schema: Schema,
    readonly query: SearchQuery,
    readonly source: SourceDescriptor,
    readonly references: readonly FieldReference[],
    readonly options: ValidateOptions,
  ) {}

  get version(): DslVersion {
    return this.schema.version;
  }

  /** Records a problem at a place in the query. */
  report(code: ErrorCode, span: Span, params: ErrorParams = {}): void {
    this.problems.push(problem(code, { params, span, source: this.options.source }));
  }

  /** Records a `_warnings` entry once. */
  warn(text: string): void {
    if (!this.warnings.includes(text)) this.warnings.push(text);
  }

  /** The resolution of a field reference (computed once, shared by every rule). */
  resolve(ref: FieldReference): PathResolution {
    let resolution = this.resolutions.get(ref);
    if (resolution === undefined) {
      resolution = resolvePath(this.schema, this.source, ref.segments);
      this.resolutions.set(ref, resolution);
    }
    return resolution;
  }
}

/** One validation rule: a name for tests and a check that reports through the context. */
export interface ValidationRule {
  readonly name: string;
  check(ctx: ValidationContext): void;
}
