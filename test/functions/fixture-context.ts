/**
 * A FunctionContext over records held in memory, for testing statement functions without an
 * engine: `readAll` serves the named fields of the given records in batches, `derived` builds
 * once per key (and counts the builds), `query` is not offered.
 */
import type { ArgumentFailure, FunctionContext } from '../../src/functions/types.ts';
import type { SourceName } from '../../src/model/sources.ts';
import type { Span } from '../../src/errors/index.ts';

export interface FixtureContext extends FunctionContext {
  /** How many times each derived value was built. */
  readonly builds: Map<string, number>;
  /** Sources and fields read with readAll, in order. */
  readonly reads: { source: SourceName; fields: readonly string[] }[];
}

export function fixtureContext(
  records: Partial<Record<SourceName, readonly Record<string, unknown>[]>>,
  batch = 7,
): FixtureContext {
  const cache = new Map<string, Promise<unknown>>();
  const builds = new Map<string, number>();
  const reads: { source: SourceName; fields: readonly string[] }[] = [];
  return {
    dslVersion: 2,
    builds,
    reads,
    query() {
      return Promise.reject(new Error('query is not offered by the fixture context'));
    },
    async *readAll(source, fields) {
      reads.push({ source, fields });
      const all = records[source] ?? [];
      for (let k = 0; k < all.length; k += batch) {
        await Promise.resolve();
        yield all
          .slice(k, k + batch)
          .map((r) => Object.fromEntries(fields.filter((f) => f in r).map((f) => [f, r[f]])));
      }
    },
    derived<T>(key: string, build: () => Promise<T>): Promise<T> {
      let value = cache.get(key);
      if (value === undefined) {
        builds.set(key, (builds.get(key) ?? 0) + 1);
        value = build();
        cache.set(key, value);
      }
      return value as Promise<T>;
    },
  };
}

/** A positioned argument failure as the tests catch it. */
export class ArgumentError extends Error {
  constructor(
    message: string,
    readonly span: Span,
  ) {
    super(message);
  }
}

/** An ArgumentFailure that throws ArgumentError. */
export const failWith: ArgumentFailure = (message, span) => {
  throw new ArgumentError(message, span);
};
